"""Reading a PDF back with poppler (pdftotext, pdftoppm) and comparing page images."""

import io
import pathlib
import subprocess


def pdf_text(pdf: bytes, first: int | None = None, last: int | None = None, layout: bool = True) -> str:
    args = ["pdftotext", "-layout"] if layout else ["pdftotext"]
    if first:
        args += ["-f", str(first)]
    if last:
        args += ["-l", str(last)]
    return subprocess.run(args + ["-", "-"], input=pdf, capture_output=True, check=True).stdout.decode("utf-8")


def page_count(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def page_texts(pdf: bytes, layout: bool = True) -> list[str]:
    """The text of each page (pdftotext separates pages with a form feed)."""
    return pdf_text(pdf, layout=layout).split("\f")[:page_count(pdf)]


def page_png(pdf: bytes, page: int, path: pathlib.Path, dpi: int = 50) -> pathlib.Path:
    prefix = path.with_suffix("")
    subprocess.run(["pdftoppm", "-png", "-r", str(dpi), "-f", str(page), "-l", str(page), "-singlefile", "-",
                    str(prefix)], input=pdf, check=True, capture_output=True)
    return prefix.with_suffix(".png")


def difference_ratio(png_a: pathlib.Path, png_b: pathlib.Path, threshold: int = 48) -> float:
    """Share of pixels (0–1) whose colour differs by more than ``threshold`` on some channel; 1.0 when
    the sizes differ (a page of another size is a layout change)."""
    from PIL import Image, ImageChops

    with Image.open(png_a) as a, Image.open(png_b) as b:
        a, b = a.convert("RGB"), b.convert("RGB")
        if a.size != b.size:
            return 1.0
        diff = ImageChops.difference(a, b).convert("L").point(lambda v: 255 if v > threshold else 0)
        histogram = diff.histogram()
        return histogram[255] / (a.size[0] * a.size[1])
