#!/usr/bin/python3
"""The table in tools/fnet/README.md, "How its answer is weighed": the
pip reader alone, the net alone, and the two weighed as vision/dice.c's
weigh_net does, on the detections of the photos a fold's net never saw.

  tools/fnet/weigh_fold.py CROPS_DIR PREDICTIONS

CROPS_DIR/eval.txt comes from build/tools/face_crops; PREDICTIONS from
train_face_net.py --fold K/N --predict FILE --turns 4. Counts are of
detections inside a labelled die's box (right, wrong, unread); a
detection inside none is a stray when it is given a face.
"""
import sys

# weigh_net's constants (vision/dice.c, NET_*)
NET_ALONE, NET_ALONE_SCALE = 0.7, 0.85
NET_PIP_KEEP, NET_PIP_KEEP_P, NET_PIP_SCALE = 0.8, 0.05, 0.9
MIN_CONFIDENCE = 0.5


def weigh(pf, pc, p):
    nf = max(range(1, 7), key=lambda k: p[k])
    q = p[nf]
    if pf > 0 and pf == nf:
        return nf, max(pc, q)
    if q >= NET_ALONE:
        return nf, q * NET_ALONE_SCALE
    if pf > 0 and pc >= NET_PIP_KEEP and p[pf] >= NET_PIP_KEEP_P:
        return pf, min(pc * NET_PIP_SCALE, 0.89)
    return 0, 0.0


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    ev = [line.split() for line in open(sys.argv[1] + "/eval.txt")]
    rows = []
    for line in open(sys.argv[2]):
        a = line.split()
        e = ev[int(a[0])]
        rows.append((int(e[4]), float(e[5]), int(e[6]), [float(v) for v in a[1:]]))
    readers = [
        ("pip reader alone", lambda pf, pc, p: (pf if pc >= MIN_CONFIDENCE else 0, pc)),
        ("net alone, from 0.5", lambda pf, pc, p: (
            (max(range(1, 7), key=lambda k: p[k]) if max(p[1:]) >= 0.5 else 0), 1.0)),
        ("net alone, from 0.7", lambda pf, pc, p: (
            (max(range(1, 7), key=lambda k: p[k]) if max(p[1:]) >= NET_ALONE else 0), 1.0)),
        ("both, as weighed", weigh),
    ]
    print(f"{'reader':24} right wrong (>= 0.8) unread strays")
    for name, fn in readers:
        right = wrong = sure_wrong = unread = strays = 0
        for pf, pc, lf, p in rows:
            f, c = fn(pf, pc, p)
            if f and c < MIN_CONFIDENCE:
                f = 0
            if lf == 0:
                strays += f > 0
            elif f == 0:
                unread += 1
            elif f == lf:
                right += 1
            else:
                wrong += 1
                sure_wrong += c >= 0.8
        print(f"{name:24} {right:5} {wrong:5} {sure_wrong:10} {unread:6} {strays:6}")


if __name__ == "__main__":
    main()
