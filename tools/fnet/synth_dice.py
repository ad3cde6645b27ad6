#!/usr/bin/python3
"""Photo-like synthetic dice crops for training the face net.

  tools/fnet/synth_dice.py OUT.bin [--count N] [--seed N]

Writes N records in face_crops' layout (uint8 class, uint8 split = 3,
uint16 0, VIS_FNET_SIDE^2 RGB bytes), crops framed as face_crops frames a
labelled die: the die's box (its top and what shows of its sides) spans
1/VIS_FNET_BOX_SPAN of the crop, scaled 0.8-1.25 and off centre by up to
0.12 of the box.

Why: the pip reader and the net mostly fail on dice the renderer of
vision/render.c never draws (tools/fnet/README.md): a die seen a little
from the side, its side faces' pips beside the top's; translucent bodies
showing the far faces' pips through the top; marbled bodies; highlights;
red pips on dark bodies; JPEG's half-resolution colour. These crops are
drawn from a model of such dice, not from any photo: nothing here is
fitted to a file. Class 0 (no die centred): the tray, its wall, and dice
0.6-1 box beside the centre.

Needs python3-numpy only. Deterministic for a given seed. Tried and not
in the committed weights (README.md gives the figures): kept so that the
next round, with more labelled photos, can weigh it again.
"""
import argparse
import sys

import numpy as np

SIDE = 40
SS = 3                      # supersampling: drawn at SS x SIDE, box-averaged
C = SIDE * SS
BOX_SPAN = 1.35             # VIS_FNET_BOX_SPAN

# The pips of each face, in units of the pip spacing, in the die's frame.
LAYOUT = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}

_yy, _xx = np.mgrid[0:C, 0:C].astype(np.float32)
_xx = (_xx + 0.5) - C / 2
_yy = (_yy + 0.5) - C / 2


def hsv(h, s, v):
    """One colour from hue (turns), saturation and value, as RGB 0-255."""
    k = (np.array([5.0, 3.0, 1.0]) + h * 6.0) % 6.0
    return 255.0 * (v - v * s * np.clip(np.minimum(k, 4.0 - k), 0.0, 1.0))


def smooth(m, r):
    """Box blur of radius r canvas pixels, three times (about Gaussian),
    of a 2-D or 3-D (C, C, ch) array."""
    r = int(r)
    if r < 1:
        return m
    for _ in range(3):
        for ax in (0, 1):
            p = np.concatenate([np.repeat(m.take([0], axis=ax), r + 1, axis=ax), m,
                                np.repeat(m.take([-1], axis=ax), r, axis=ax)], axis=ax)
            c = np.cumsum(p, axis=ax)
            hi = c.take(np.arange(2 * r + 1, c.shape[ax]), axis=ax)
            lo = c.take(np.arange(0, c.shape[ax] - 2 * r - 1), axis=ax)
            m = (hi - lo) / (2 * r + 1)
    return m


def rsquare(u, w, r):
    """Signed distance to a square of side 1 with corners rounded by r."""
    qu = np.abs(u) - (0.5 - r)
    qw = np.abs(w) - (0.5 - r)
    out = np.hypot(np.maximum(qu, 0), np.maximum(qw, 0))
    return out + np.minimum(np.maximum(qu, qw), 0) - r


def cover(dst, mask, colour, alpha=1.0):
    """Paints colour over dst where mask (0-1) is, in place."""
    a = (mask * alpha)[..., None]
    dst *= 1 - a
    dst += a * colour


def pip_colour(rng, body):
    """A pip colour that stands out from body, as real dice do: dark on
    light, light on dark, and now and then only by hue (red on black)."""
    lum = body.mean()
    r = rng.random()
    if r < 0.25:
        return hsv(rng.choice([0.0, 0.0, 0.6, 0.33]), rng.uniform(0.6, 1), rng.uniform(0.45, 0.9))
    if lum > 120:
        return hsv(rng.random(), rng.uniform(0, 1), rng.uniform(0.0, 0.3))
    if r < 0.4:
        return hsv(rng.uniform(0.1, 0.17), rng.uniform(0.5, 1), rng.uniform(0.7, 1))
    return np.full(3, rng.uniform(190, 255))


def body_colour(rng):
    r = rng.random()
    if r < 0.15:
        return np.full(3, rng.uniform(200, 250)) - np.array([0, 0, rng.uniform(0, 25)])
    if r < 0.3:
        return np.full(3, rng.uniform(15, 70))
    return hsv(rng.random(), rng.uniform(0.3, 1), rng.uniform(0.2, 0.95))


def pose(rng):
    """A die's turn and where its bottom lies from its top in the picture
    (the perspective of a camera not straight above it), in top sides."""
    m = rng.uniform(0, 0.45) if rng.random() < 0.8 else 0.0
    return rng.uniform(0, 2 * np.pi), m, rng.uniform(0, 2 * np.pi)


def box_of(th, m, phi):
    """The larger side of the picture box of a die in pose (th, m, phi),
    in top sides, and the box's middle from the top's middle."""
    half = 0.5 * (abs(np.cos(th)) + abs(np.sin(th)))
    vx, vy = m * np.cos(phi + th), m * np.sin(phi + th)
    return 2 * half + max(abs(vx), abs(vy)), 0.5 * vx, 0.5 * vy


def draw_die(rng, img, cx, cy, a, face, ps, full=True):
    """Draws a die in pose ps (see pose()) whose top face (side a canvas
    pixels) is centred on (cx, cy), into img (C x C x 3 float). full:
    translucency and engraved pips may be drawn too (the die the crop is
    about; neighbours get them half the time). Returns the body mask, for
    the shadow."""
    th, m, phi = ps
    ct, st = np.cos(th), np.sin(th)
    u = ((_xx - cx) * ct + (_yy - cy) * st) / a
    w = (-(_xx - cx) * st + (_yy - cy) * ct) / a
    vu, vw = m * np.cos(phi), m * np.sin(phi)
    rr = rng.uniform(0.06, 0.18)
    top_d = rsquare(u, w, rr)
    body_d = top_d
    for t in np.linspace(0.2, 1.0, 5):
        body_d = np.minimum(body_d, rsquare(u - t * vu, w - t * vw, rr))
    aa = 1.0 / a  # a canvas pixel in die units: edges anti-aliased over it
    top = np.clip(0.5 - top_d / aa, 0, 1)
    body = np.clip(0.5 - body_d / aa, 0, 1)

    base = body_colour(rng)
    col = np.broadcast_to(base, (C, C, 3)).copy()
    if rng.random() < 0.3:      # marbled: two colours in swirls
        other = np.clip(base + rng.normal(0, 70, 3), 0, 255) if rng.random() < 0.6 else body_colour(rng)
        f = np.zeros((C, C), np.float32)
        for _ in range(3):
            k = rng.uniform(1.5, 5.0) * 2 * np.pi
            ang = rng.uniform(0, 2 * np.pi)
            f += np.sin(k * (u * np.cos(ang) + w * np.sin(ang)) + rng.uniform(0, 6.3)
                        + 1.5 * np.sin(3 * u + w))
        mix = np.clip(0.5 + f * rng.uniform(0.3, 1.0), 0, 1)[..., None]
        col = col * (1 - mix) + other * mix
    # light: a gradient across the die, the side faces darker, the rounded
    # edge of the top a little darker still
    g = rng.uniform(-0.15, 0.15) * (u * np.cos(phi + 1) + w * np.sin(phi + 1))
    shade = 1.0 + g - (1 - top) * rng.uniform(0.15, 0.55)
    shade -= 0.2 * np.clip(1 + top_d / 0.08, 0, 1) * top * rng.uniform(0, 1)
    col *= shade[..., None]
    pip = pip_colour(rng, base)
    spacing = rng.uniform(0.22, 0.3)
    rp = rng.uniform(0.07, 0.12)
    translucent = full and rng.random() < 0.3

    def pips_on(face_no, pu, pw, weight, blur=0):
        """Pips of face_no in a face whose coordinates are (pu, pw)."""
        mk = np.zeros((C, C), np.float32)
        for i, j in LAYOUT[face_no]:
            d = np.hypot(pu - i * spacing, pw - j * spacing) - rp
            mk = np.maximum(mk, np.clip(0.5 - d / aa, 0, 1))
        return smooth(mk, blur) * weight

    others = [k for k in range(1, 7) if k != face and k != 7 - face]
    rng.shuffle(others)
    if translucent:
        # the far faces' pips seen through the body, blurred and faint
        ghost = pips_on(7 - face, u - vu, w - vw, 1.0, blur=a * 0.04)
        ghost = np.maximum(ghost, pips_on(others[2], u - 0.5 * vu, w - 0.5 * vw, 0.7, blur=a * 0.05))
        cover(col, ghost * body, pip, rng.uniform(0.15, 0.45))
    # the side faces that show: those the bottom is shifted towards
    for n, (eu, ew) in enumerate(((1, 0), (-1, 0), (0, 1), (0, -1))):
        dot = eu * vu + ew * vw
        if dot <= 0.02:
            continue
        # a point = edge middle + s * tangent + t * v, s in [-.5, .5], t in [0, 1]
        tu, tw = -ew, eu
        det = tu * vw - tw * vu
        qu, qw = u - 0.5 * eu, w - 0.5 * ew
        s = (qu * vw - qw * vu) / det
        t = (tu * qw - tw * qu) / det
        inside = (np.abs(s) < 0.5) & (t > 0) & (t < 1)
        mk = pips_on(others[n % 2], s, (t - 0.5), 1.0) * inside * (1 - top)
        cover(col, mk, pip * rng.uniform(0.6, 1.0))
    cover(col, pips_on(face, u, w, 1.0) * top, pip)
    if full and rng.random() < 0.4:     # engraved pips: a dark crescent inside
        sh = pips_on(face, u + 0.03, w + 0.03, 1.0) * (1 - pips_on(face, u - 0.02, w - 0.02, 1.0))
        cover(col, sh * top, col * 0.4, 0.8)
    if rng.random() < 0.5:              # highlight on the top
        hu, hw = rng.uniform(-0.4, 0.4, 2)
        ru, rw = rng.uniform(0.05, 0.3, 2)
        h = np.exp(-(((u - hu) / ru) ** 2 + ((w - hw) / rw) ** 2))
        cover(col, h * top, np.full(3, 255.0), rng.uniform(0.3, 0.9))
    if rng.random() < 0.2:              # a glint along one edge
        e = rng.integers(4)
        band = np.exp(-(((u if e < 2 else w) * (1 if e % 2 else -1) - 0.42) / 0.04) ** 2)
        cover(col, band * top, np.full(3, 255.0), rng.uniform(0.3, 0.8))
    alpha = rng.uniform(0.6, 0.85) if translucent else 1.0
    cover(img, body, col, 1.0)
    if alpha < 1.0:
        # a translucent body lets some of what is under it through: here
        # the body's own colour, lighter at its middle
        cover(img, body * np.clip(1 - np.hypot(u, w), 0, 1), base * 1.3, 1 - alpha)
    return body


def background(rng):
    g = rng.uniform(140, 235)
    img = np.ones((C, C, 3), np.float32) * (g + rng.normal(0, 6, 3))
    ang = rng.uniform(0, 2 * np.pi)
    img += (rng.uniform(-25, 25) * (_xx * np.cos(ang) + _yy * np.sin(ang)) / C)[..., None]
    if rng.random() < 0.15:             # the tray's wall: a band across the crop
        ang = rng.uniform(0, 2 * np.pi)
        d = _xx * np.cos(ang) + _yy * np.sin(ang) - rng.uniform(0.25, 0.6) * C
        wall = np.clip(0.5 + d / SS, 0, 1)
        wc = rng.uniform(30, 120) if rng.random() < 0.5 else rng.uniform(200, 250)
        cover(img, wall, np.full(3, wc) + (d[..., None] * rng.uniform(-0.5, 0.5)), 1.0)
    return img


def sample(rng, cls):
    img = background(rng)
    box = C / BOX_SPAN * rng.uniform(0.8, 1.25)
    ps = pose(rng)
    extent, ox, oy = box_of(*ps)
    a = box / extent                    # the top's side: the box also holds the sides
    shadow = np.zeros((C, C), np.float32)
    sdir = rng.uniform(0, 2 * np.pi)
    slen = rng.uniform(0.03, 0.2) * a
    spots = []
    if cls == 0:
        # nothing centred: the tray, or dice beside the centre
        k = rng.integers(0, 4)
        for n in range(k):
            ang = rng.uniform(0, 2 * np.pi)
            dist = rng.uniform(0.6, 1.0) * box if n == 0 else rng.uniform(0.9, 1.5) * box
            spots.append((dist * np.cos(ang), dist * np.sin(ang), rng.integers(1, 7)))
    else:
        for n in range(rng.integers(0, 3) if rng.random() < 0.5 else 0):
            ang = rng.uniform(0, 2 * np.pi)
            dist = rng.uniform(0.95, 1.5) * box
            spots.append((dist * np.cos(ang), dist * np.sin(ang), rng.integers(1, 7)))
        j = 0.12 * box
        spots.append((rng.uniform(-j, j) - ox * a, rng.uniform(-j, j) - oy * a, cls))
    for n, (x, y, f) in enumerate(spots):
        main = cls != 0 and n == len(spots) - 1
        aa = a if main else a * rng.uniform(0.85, 1.15)
        mk = draw_die(rng, img, x, y, aa, f, ps if main else pose(rng),
                      full=main or rng.random() < 0.5)
        shadow = np.maximum(shadow, mk)
    if rng.random() < 0.7 and spots:
        sh = np.roll(shadow, (int(slen * np.sin(sdir)), int(slen * np.cos(sdir))), axis=(0, 1))
        sh = smooth(sh, a * 0.06) * (1 - shadow)
        img *= (1 - sh * rng.uniform(0.15, 0.5))[..., None]
    blur = rng.uniform(0.2, 1.3) * SS
    img = smooth(img, blur / 1.7)
    small = img.reshape(SIDE, SS, SIDE, SS, 3).mean(axis=(1, 3))
    if rng.random() < 0.7:
        # JPEG keeps colour at half resolution
        y = small @ np.array([0.299, 0.587, 0.114])
        chroma = small - y[..., None]
        chroma = chroma.reshape(SIDE // 2, 2, SIDE // 2, 2, 3).mean(axis=(1, 3))
        chroma = chroma.repeat(2, axis=0).repeat(2, axis=1)
        small = y[..., None] + chroma
    small += rng.normal(0, rng.uniform(0, 5), small.shape)
    return np.clip(np.rint(small), 0, 255).astype(np.uint8)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--count", type=int, default=30000)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    with open(a.out, "wb") as f:
        for i in range(a.count):
            cls = 0 if rng.random() < 0.2 else int(rng.integers(1, 7))
            crop = sample(rng, cls)
            f.write(bytes([cls, 3, 0, 0]))
            f.write(crop.tobytes())
            if (i + 1) % 5000 == 0:
                print(f"{i + 1}/{a.count}", file=sys.stderr)


if __name__ == "__main__":
    main()
