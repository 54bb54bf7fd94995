"""ctensor.explain and ctensor.draw (ctensor/_explain.py over ct_explain)."""

import io
import pathlib
import xml.etree.ElementTree as ET

import pytest

import ctensor
from ctensor import _C


def text_of(*tensors, **kw):
    buf = io.StringIO()
    ctensor.explain(*tensors, file=buf, **kw)
    return buf.getvalue()


def test_one_tensor(capsys):
    x = ctensor.arange(12.).view(3, 4)
    ctensor.explain(x)
    out = capsys.readouterr().out
    assert out.startswith("a: tensor of shape [3, 4], dtype float32, 12 elements\n")
    assert f"  storage: id {ctensor.storage_id(x)}, 48 bytes (12 elements of 4 bytes)" in out
    assert "  strides: [4, 1] elements\n" in out
    assert "  view: yes; base: tensor of shape [12], dtype float32, on the same storage\n" in out
    assert "a and b" not in out


def test_pair_with_names():
    x = ctensor.arange(12.).view(3, 4)
    col = x[:, 1]
    out = text_of(x, col, names=("x", "x[:, 1]"))
    assert out.startswith("x: tensor of shape [3, 4]")
    assert "\nx[:, 1]: tensor of shape [3], dtype float32, 3 elements\n" in out
    assert "  storage offset: 1 elements (4 bytes)\n" in out
    assert "\nx and x[:, 1]:\n" in out
    assert "  x is x[:, 1]'s base: no; x[:, 1] is x's base: no; same base: yes\n" in out
    assert "  shared elements: 3 of x's 12 distinct, 3 of x[:, 1]'s 3 distinct\n" in out


def test_base_relation_is_renamed_on_both_sides():
    root = ctensor.zeros(6)
    v = root.view(2, 3)
    out = text_of(v, root, names=("v", "root"))
    assert "  v is root's base: no; root is v's base: yes; same base: no\n" in out


def test_three_tensors_give_every_pair():
    x = ctensor.arange(6.)
    out = text_of(x, x[1:3], x.clone())
    for heading in ("a:", "b:", "c:", "a and b:", "a and c:", "b and c:"):
        assert f"\n{heading}" in "\n" + out, heading
    assert out.count("  same storage: no (ids ") == 2


def test_explain_matches_the_c_text_for_two_tensors():
    x = ctensor.arange(4.)
    t = x.t()
    assert text_of(x, t) == _C.ct_explain(x, t)


def test_long_text_is_not_truncated():
    # 64 dims with long strides: longer than the 2048 bytes the binding tries first
    x = ctensor.zeros(2).as_strided([1] * 63 + [2], [123456789] * 63 + [1])
    t = _C.ct_explain(x, x)
    assert len(t) > 2048 and t.endswith("  same memory locations: yes\n")
    assert t.count("123456789, ") == 2 * 63


def test_errors():
    x = ctensor.zeros(2)
    with pytest.raises(TypeError, match="at least one tensor"):
        ctensor.explain()
    with pytest.raises(TypeError, match="argument 1 must be Tensor, not list"):
        ctensor.explain(x, [1, 2])
    with pytest.raises(ValueError, match="1 names for 2 tensors"):
        ctensor.explain(x, x, names=("x",))
    with pytest.raises(TypeError, match="argument 'b' must be Tensor or None"):
        _C.ct_explain(x, 3)


def cells(svg, tensor_color):
    """Texts of the cells filled with tensor_color, in drawing order."""
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    items = list(root)
    out = []
    for i, el in enumerate(items):
        if el.tag == ns + "rect" and el.get("fill") == tensor_color and el.get("width") == "44":
            nxt = items[i + 1] if i + 1 < len(items) else None
            out.append(nxt.text if nxt is not None and nxt.tag == ns + "text" else "")
    return out


def test_draw_svg_numbers_elements_in_logical_order():
    x = ctensor.arange(6.).view(2, 3)
    t = x.t()
    svg = ctensor.draw(x, t, names=("x", "x.t()"))
    ET.fromstring(svg)  # well-formed
    assert cells(svg, "#4e79a7") == ["0", "1", "2", "3", "4", "5"]
    # storage cell c holds t's element number: x.t() reads 0 3 1 4 2 5
    assert cells(svg, "#f28e2b") == ["0", "2", "4", "1", "3", "5"]
    assert svg.count('stroke="#e15759" stroke-width="3"') == 6 + 1  # every cell shared; + legend


def _text_extents(svg):
    """(left, right, text) in pixels of every text of the picture, measured with DejaVu Sans,
    the picture's first font (matplotlib's own), as a browser lays it out."""
    pytest.importorskip("matplotlib", reason="measuring text needs matplotlib (python3-matplotlib)")
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath

    measure = TextToPath()
    ns = "{http://www.w3.org/2000/svg}"
    out = []
    for el in ET.fromstring(svg).iter(ns + "text"):
        prop = FontProperties(family="DejaVu Sans", size=float(el.get("font-size")),
                              weight=el.get("font-weight", "normal"))
        w = measure.get_text_width_height_descent(el.text, prop, ismath=False)[0]
        x = float(el.get("x"))
        left = {"start": x, "middle": x - w / 2, "end": x - w}[el.get("text-anchor")]
        out.append((left, left + w, el.text))
    return out


@pytest.mark.parametrize("names", [("x", "y"),
                                   ("batch_last", "batch_last.t().reshape(2, -1)"),
                                   ("a" * 70, "a_much_longer_name_than_any_picture_of_the_guide_uses.t()[1:]")])
def test_draw_never_clips_a_name_or_a_legend(names):
    # docs/img/view_batch_permuted.svg once showed "_last.t().reshape(2, -1)": the row labels
    # had a fixed 150-pixel column and the picture a fixed width
    x = ctensor.arange(6.).view(3, 2)
    svg = ctensor.draw(x, x.t().reshape(2, -1), names=names)
    width = float(ET.fromstring(svg).get("width"))
    texts = _text_extents(svg)
    assert {n for n in names} <= {t for _, _, t in texts}
    for left, right, text in texts:
        assert 0 <= left and right <= width, (text, left, right, width)
    if names == ("x", "y"):
        assert width == 874  # short names keep the usual layout


def test_the_guide_pictures_clip_no_text():
    # docs/img is drawn by examples/seeds/*.py --draw docs/img: redraw after changing draw()
    guide_img = pathlib.Path(__file__).resolve().parents[2] / "docs" / "img"
    pictures = sorted(guide_img.glob("*.svg"))
    assert len(pictures) >= 5
    for p in pictures:
        svg = p.read_text()
        width = float(ET.fromstring(svg).get("width"))
        for left, right, text in _text_extents(svg):
            assert 0 <= left and right <= width, (p.name, text, left, right, width)


def test_draw_marks_only_shared_cells_and_expand_repeats():
    x = ctensor.arange(4.)
    e = x[1:3].expand(2, 2)
    svg = ctensor.draw(x[:1], e)
    assert svg.count('stroke="#e15759" stroke-width="3"') == 1  # the legend only: no overlap
    assert cells(svg, "#f28e2b") == ["0,2", "1,3"]


def test_draw_one_strip_per_storage():
    x = ctensor.zeros(4)
    b = ctensor.zeros(2, dtype=ctensor.float64)
    svg = ctensor.draw(x, b, x[1:])
    assert f">storage {ctensor.storage_id(x)}: 16 bytes, cells of 4 bytes" in svg
    assert f">storage {ctensor.storage_id(b)}: 16 bytes, cells of 8 bytes" in svg


def test_draw_writes_svg_and_png(tmp_path):
    x = ctensor.arange(8.).view(2, 4)
    p = ctensor.draw(x, x[:, 1:3], path=tmp_path / "a.svg")
    assert p.endswith("a.svg") and (tmp_path / "a.svg").read_text().startswith("<svg")
    pytest.importorskip("matplotlib", reason="PNG output needs matplotlib (python3-matplotlib)")
    ctensor.draw(x, x[:, 1:3], path=tmp_path / "a.png")
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_draw_refuses_what_it_cannot_draw(tmp_path):
    with pytest.raises(ValueError, match="at most 512"):
        ctensor.draw(ctensor.zeros(1000))
    with pytest.raises(ValueError, match="a has 1000000 elements; draw.. pictures at most 4096"):
        ctensor.draw(ctensor.zeros(1).expand(1000, 1000))
    with pytest.raises(ValueError, match=r"must end in .svg or .png"):
        ctensor.draw(ctensor.zeros(3), path=tmp_path / "a.jpg")
    with pytest.raises(TypeError, match="at least one tensor"):
        ctensor.draw()
