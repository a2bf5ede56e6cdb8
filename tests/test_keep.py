"""Keyed parts (nova/render/keep.py): the page is sent only the parts that changed."""

from nova.render.keep import keyed, keys_in


def test_a_part_gets_its_id_and_a_key_from_its_markup():
    a = keyed('<section class="panel">one</section>', "part-a")
    assert a.startswith('<section class="panel" id="part-a" data-nova-keep="p')
    assert a.endswith(">one</section>")
    assert keyed('<section class="panel">two</section>', "part-a") != a
    assert keys_in(a) == keys_in(keyed('<section class="panel">one</section>', "part-a"))


def test_a_part_the_page_shows_comes_back_empty_and_marked_elided():
    whole = keyed("<li>turn 3</li>", "log-3-0")
    shown = keys_in(whole)
    elided = keyed("<li>turn 3</li>", "log-3-0", shown)
    assert "turn 3" not in elided and "data-nova-elided" in elided
    assert keys_in(elided) == shown  # the page keeps showing the same key
    changed = keyed("<li>turn 3, more</li>", "log-3-0", shown)
    assert "turn 3, more" in changed and "data-nova-elided" not in changed
