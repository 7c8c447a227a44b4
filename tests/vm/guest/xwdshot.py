#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
# xwdshot.py XWD OUT.png [X Y W H [SCALE]]: a screenshot of Xvfb's
# screen as a PNG, whole or the rectangle X,Y (top left) W x H (clipped
# to the screen), SCALE times as large (each pixel repeated: tesseract
# reads a dialog's 13-pixel text better at twice its size). Xvfb -fbdir DIR keeps its framebuffer in DIR/Xvfb_screen0 as
# an XWD image (ZPixmap, 32 bits per pixel, depth 24, masks read from
# the header); this reads it at once, so the PNG is the screen as it was
# at that moment. Standard library only (zlib, struct): the guest has
# no imaging tools. Exit 1 with a message for an image it cannot read.
import struct
import sys
import zlib

HEADER = struct.Struct(">25I")  # the XWD header's 25 CARD32s


def read_xwd(path):
    with open(path, "rb") as f:
        data = f.read()
    h = HEADER.unpack_from(data, 0)
    size, fmt, depth, width, height = h[0], h[2], h[3], h[4], h[5]
    byte_order, bpp, bpl = h[7], h[11], h[12]
    masks = h[14:17]
    ncolors = h[19]
    if fmt != 2 or bpp != 32 or depth not in (24, 32):
        raise ValueError("format %d, %d bits per pixel, depth %d: wanted "
                         "ZPixmap, 32, 24" % (fmt, bpp, depth))
    start = size + ncolors * 12
    if len(data) < start + bpl * height:
        raise ValueError("short image: %d bytes" % len(data))
    order = "<" if byte_order == 0 else ">"
    return data, start, width, height, bpl, order, masks


def channels(row, order, masks):
    """The red, green and blue bytes of a row of 32-bit pixels, each
    channel one byte of the pixel (Xvfb's 24-bit TrueColor): sliced out,
    not computed pixel by pixel, which under TCG would take seconds."""
    out = []
    for m in masks:
        if m not in (0xFF, 0xFF00, 0xFF0000, 0xFF000000):
            raise ValueError("colour mask %#x is not one byte" % m)
        i = (m.bit_length() - 1) // 8  # byte index, least significant first
        out.append(row[(i if order == "<" else 3 - i)::4])
    return out


def crop_rgb(img, x, y, w, h, scale=1):
    data, start, width, height, bpl, order, masks = img
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(width, x + w), min(height, y + h)
    if x1 <= x0 or y1 <= y0:
        raise ValueError("rectangle %dx%d+%d+%d is off the %dx%d screen"
                         % (w, h, x, y, width, height))
    n = (x1 - x0) * scale * 3
    rows = []
    for row in range(y0, y1):
        at = start + row * bpl + x0 * 4
        rgb = channels(data[at:at + (x1 - x0) * 4], order, masks)
        out = bytearray(n + 1)  # out[0] = 0: PNG filter "none"
        for k in range(scale):
            for c in range(3):
                out[1 + 3 * k + c::3 * scale] = rgb[c]
        rows += [bytes(out)] * scale
    return (x1 - x0) * scale, (y1 - y0) * scale, b"".join(rows)


def png(path, w, h, raw):
    def chunk(kind, body):
        c = kind + body
        return struct.pack(">I", len(body)) + c + struct.pack(
            ">I", zlib.crc32(c) & 0xFFFFFFFF)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)))
        f.write(chunk(b"IDAT", zlib.compress(raw, 6)))
        f.write(chunk(b"IEND", b""))


def main():
    if len(sys.argv) not in (3, 7, 8):
        sys.stderr.write("usage: xwdshot.py XWD OUT.png [X Y W H [SCALE]]\n")
        return 2
    try:
        img = read_xwd(sys.argv[1])
        if len(sys.argv) >= 7:
            x, y, w, h = (int(v) for v in sys.argv[3:7])
        else:
            x, y, w, h = 0, 0, img[2], img[3]
        scale = int(sys.argv[7]) if len(sys.argv) == 8 else 1
        if not 1 <= scale <= 4:
            raise ValueError("scale %d: wanted 1 to 4" % scale)
        w, h, raw = crop_rgb(img, x, y, w, h, scale)
    except (OSError, ValueError, struct.error) as e:
        sys.stderr.write("xwdshot: %s: %s\n" % (sys.argv[1], e))
        return 1
    png(sys.argv[2], w, h, raw)
    return 0


if __name__ == "__main__":
    sys.exit(main())
