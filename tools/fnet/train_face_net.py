#!/usr/bin/python3
"""Trains the face net of vision/face_net.c and writes its weights as C.

  tools/fnet/train_face_net.py CROPS_DIR [--epochs N] [--seed N]
        [--fold K/N] [--calib K/N] [--out vision/face_net_weights] [--predict FILE]
        [--synth FILE] [--photos tuning|all] [--report]
        [--weights-file OUT [--weights-turns N]]

CROPS_DIR holds train.bin and eval.bin from build/tools/face_crops (see
there for the record layout). The train splits of every photo set are
trained on (split 0: the tray's 2019-12-08 photos; 4, 6, ...: the train
split of each --set, every --faces dir), with --photos all the held-out
ones too (1, 5, 7, ...), with the rendered dice (split 2) and, with
--synth, the photo-like synthetic dice of synth_dice.py (split 3; tried,
not in the committed weights: README.md). The reject kinds (7 side face,
8 two dice, 9 a stray of the reader's) are learnt as class 0, "no die
centred": the net has one way to turn a crop down.

--calib K/N keeps the train photos whose index is K mod N out of the
training and fits on their eval crops (every find of the reader's there)
one temperature for the net's logits (the one that gives them the least
log loss), folded into the last layer's weights: the net's confidence
then means what it says on photos it did not learn from. --report prints,
for each set's held-out eval crops, the net's face accuracy at one pass
and at four quarter turns, how many finds where no die is it turns down,
and a reliability table (bins of the net's top probability).

--fold K/N trains without the photos whose
index is K mod N and writes, with --predict, the net's probabilities for
the eval records of exactly those photos, so the way dice.c weighs the net
against the pip reader can be chosen on photos the net never saw. Without
--fold the net is trained on every photo chosen and its weights written to
OUT.c and OUT.h.

Needs Debian's python3-torch and python3-numpy (not needed to build or
test dyeref: the weights are committed). Deterministic for a given seed on
one machine; a different torch or CPU may give slightly different weights.
"""
import argparse
import os
import sys

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

SIDE = 40
CROP = SIDE * SIDE * 3
REC = 4 + CROP
NORM_EPS = 8.0  # the crop's spread floor, bytes (FNET_NORM_EPS)


def load(path):
    raw = np.fromfile(path, dtype=np.uint8)
    if raw.size % REC:
        sys.exit(f"{path}: size {raw.size} is not a whole number of records")
    raw = raw.reshape(-1, REC)
    cls = raw[:, 0].astype(np.int64)
    split = raw[:, 1].astype(np.int64)
    photo = raw[:, 2].astype(np.int64) | (raw[:, 3].astype(np.int64) << 8)
    crops = raw[:, 4:].reshape(-1, SIDE, SIDE, 3)
    return cls, split, photo, crops


def learnt(cls):
    """The net's class for a record's: the reject kinds (7-9) are 0."""
    return np.where(cls >= 7, 0, cls)


def is_train(split):
    """Train splits: the tray's 2019-12-08 photos, rendered and synthetic
    dice, and every other set's train split (even from 4)."""
    return (split == 0) | (split == 2) | (split == 3) | ((split >= 4) & (split % 2 == 0))


def set_name(split):
    return "tray" if split <= 1 else "rendered" if split == 2 else "synth" if split == 3 \
        else f"set {(split - 4) // 2 + 1}"


def fit_temperature(logits, y):
    """The temperature T minimising the log loss of softmax(logits / T)
    against y (a search over log T: one number, no gradients needed)."""
    lg = torch.from_numpy(logits)
    yt = torch.from_numpy(y)
    best_t, best = 1.0, float("inf")
    for t in np.exp(np.linspace(np.log(0.3), np.log(5.0), 200)):
        loss = float(F.cross_entropy(lg / float(t), yt))
        if loss < best:
            best_t, best = float(t), loss
    return best_t


def logits_of(net, crops, turns=1):
    """The net's logits; with turns > 1, the log of the probabilities
    averaged over quarter turns (as vision/dice.c reads at four)."""
    p = predict(net, crops, turns)
    return np.log(np.clip(p, 1e-12, 1.0)).astype(np.float32)


def reliability(p, y, label):
    """Rows of the reliability table: bins of the top probability, how
    many crops, how many a face, how many of those right."""
    top, arg = p.max(1), p.argmax(1)
    edges = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.99, 1.01]
    print(f"{label}: from  crops  faces  right  wrong  (wrong: a face not the label's, 0 included)")
    for lo, hi in zip(edges[:-1], edges[1:]):
        m = (top >= lo) & (top < hi)
        face = m & (arg > 0)
        right = face & (arg == y)
        if m.any():
            print(f"{label}: {lo:4.2f}  {int(m.sum()):5d}  {int(face.sum()):5d}  {int(right.sum()):5d}"
                  f"  {int(face.sum() - right.sum()):5d}")


def report(net, crops_dir, calib_t):
    """One pass against four turns, rejection and reliability on each
    set's held-out eval crops (split odd: never trained on)."""
    ecls, esplit, ephoto, ecrops = load(os.path.join(crops_dir, "eval.bin"))
    for sp in sorted(set(int(v) for v in esplit)):
        if sp % 2 == 0 or sp == 3:
            continue
        m = esplit == sp
        y = learnt(ecls[m])
        name = set_name(sp) + " held out"
        for turns in (1, 4):
            p = predict(net, ecrops[m], turns)
            faces = y > 0
            acc = float((p.argmax(1)[faces] == y[faces]).mean()) if faces.any() else 0.0
            rej = ecls[m] >= 7
            turned_down = float((p.argmax(1)[rej] == 0).mean()) if rej.any() else 0.0
            print(f"{name}, {turns} turn(s): {int(faces.sum())} labelled finds, face right "
                  f"{100 * acc:.1f} %; {int(rej.sum())} finds where no die is, turned down "
                  f"{100 * turned_down:.1f} % (temperature {calib_t:.3f} applied)")
        reliability(predict(net, ecrops[m], 4), y, name + " (4 turns)")


class FaceNet(nn.Module):
    """The layers of vision/face_net.c, in the same order."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 16, 3, padding=1)
        self.c2 = nn.Conv2d(16, 32, 3, padding=1)
        self.c3 = nn.Conv2d(32, 48, 3, padding=1)
        self.f1 = nn.Linear(48 * 5 * 5, 64)
        self.f2 = nn.Linear(64, 7)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.c1(x)), 2)
        x = F.max_pool2d(F.relu(self.c2(x)), 2)
        x = F.max_pool2d(F.relu(self.c3(x)), 2)
        x = F.relu(self.f1(x.flatten(1)))
        return self.f2(x)


def normalise(x):
    """x: float tensor N,3,S,S of byte values; as vis_fnet_classify does."""
    mean = x.mean(dim=(1, 2, 3), keepdim=True)
    var = (x * x).mean(dim=(1, 2, 3), keepdim=True) - mean * mean
    return (x - mean) / (var.clamp(min=0).sqrt() + NORM_EPS)


def augment(x, gen):
    """Colour and picture changes a real die may show that turning and
    scaling (done when cutting) do not: any body and pip colour (channels
    swapped, the picture inverted), light, contrast, blur, noise, mirror
    images and quarter turns (a face's pips are the same in all)."""
    n = x.shape[0]
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand(-1, -1, SIDE, SIDE))
    inv = torch.rand(n, generator=gen) < 0.25
    x[inv] = 255.0 - x[inv]
    gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    bias = 60.0 * (torch.rand(n, 1, 1, 1, generator=gen) - 0.5)
    gray = x.mean(dim=1, keepdim=True)
    sat = 0.5 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    x = gray + (x - gray) * sat
    x = x * gain + bias
    blur = torch.rand(n, generator=gen) < 0.3
    if blur.any():
        k = torch.tensor([1.0, 2.0, 1.0])
        k = (k[:, None] * k[None, :]) / 16.0
        k = k.expand(3, 1, 3, 3).contiguous()
        x[blur] = F.conv2d(F.pad(x[blur], (1, 1, 1, 1), mode="replicate"), k, groups=3)
    x = x + torch.randn(x.shape, generator=gen) * (6.0 * torch.rand(n, 1, 1, 1, generator=gen))
    if torch.rand(1, generator=gen) < 0.5:
        x = x.flip(3)
    x = torch.rot90(x, int(torch.randint(4, (1,), generator=gen)), dims=(2, 3))
    return x.clamp(0, 255)


def to_tensor(crops):
    return torch.from_numpy(crops).permute(0, 3, 1, 2).float()


def train(crops, cls, epochs, seed):
    torch.manual_seed(seed)
    gen = torch.Generator().manual_seed(seed)
    net = FaceNet()
    opt = torch.optim.Adam(net.parameters(), lr=2e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=epochs * ((len(cls) + 127) // 128))
    x_all = to_tensor(crops)
    y_all = torch.from_numpy(cls)
    for ep in range(epochs):
        order = torch.randperm(len(cls), generator=gen)
        total, right, loss_sum = 0, 0, 0.0
        net.train()
        for b in range(0, len(cls), 128):
            idx = order[b:b + 128]
            x = normalise(augment(x_all[idx].clone(), gen))
            y = y_all[idx]
            out = net(x)
            loss = F.cross_entropy(out, y, label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            loss_sum += float(loss) * len(idx)
            right += int((out.argmax(1) == y).sum())
            total += len(idx)
        print(f"epoch {ep + 1}/{epochs}: loss {loss_sum / total:.4f}, right {100 * right / total:.2f} %",
              file=sys.stderr)
    net.eval()
    return net


def predict(net, crops, turns=1):
    """Probabilities, averaged over `turns` quarter turns of each crop."""
    with torch.no_grad():
        out = []
        for b in range(0, len(crops), 512):
            x = normalise(to_tensor(crops[b:b + 512]))
            out.append(sum(F.softmax(net(torch.rot90(x, t, dims=(2, 3))), dim=1)
                           for t in range(turns)) / turns)
        return torch.cat(out).numpy() if out else np.zeros((0, 7), np.float32)


def c_array(f, name, t):
    v = t.detach().numpy().astype(np.float32).ravel()
    f.write(f"const float {name}[{v.size}] = {{\n")
    for i in range(0, v.size, 8):
        f.write("\t" + ", ".join(f"{float(a):.9g}f" for a in v[i:i + 8]) + ",\n")
    f.write("};\n")


def export(net, out, note, turns=4):
    base = os.path.basename(out)
    layers = [("c1", net.c1), ("c2", net.c2), ("c3", net.c3), ("f1", net.f1), ("f2", net.f2)]
    with open(out + ".h", "w") as h:
        h.write(f"/* Generated by tools/fnet/train_face_net.py: do not edit. {note} */\n")
        h.write("#ifndef DYEREF_FACE_NET_WEIGHTS_H\n#define DYEREF_FACE_NET_WEIGHTS_H\n\n")
        h.write(f"#define FNET_NORM_EPS {NORM_EPS}\n")
        h.write(f"#define FNET_TURNS {turns}  /* quarter turns a crop is read at */\n")
        for n, l in layers:
            if isinstance(l, nn.Conv2d):
                h.write(f"#define FNET_{n.upper()}_IN {l.in_channels}\n#define FNET_{n.upper()}_OUT {l.out_channels}\n")
            else:
                h.write(f"#define FNET_{n.upper()}_IN {l.in_features}\n#define FNET_{n.upper()}_OUT {l.out_features}\n")
        h.write("\n")
        for n, l in layers:
            h.write(f"extern const float fnet_{n}_w[{l.weight.numel()}];\n")
            h.write(f"extern const float fnet_{n}_b[{l.bias.numel()}];\n")
        h.write("\n#endif\n")
    with open(out + ".c", "w") as c:
        c.write(f"/* Generated by tools/fnet/train_face_net.py: do not edit. {note} */\n")
        c.write(f'#include "vision/{base}.h"\n\n')
        for n, l in layers:
            c_array(c, f"fnet_{n}_w", l.weight)
            c_array(c, f"fnet_{n}_b", l.bias)


def write_weights_file(net, path, turns):
    """The net as a weights file for `[camera] face_net` and `dyeref dice
    --face-net` (vis_fnet_load; the format is in docs/vision.md): a header
    of little-endian u32 (magic, format 1, crop side, classes, turns, the
    layers' widths, the spread floor as float32), every layer's weight and
    bias as float32 in torch's order, and a CRC-32 of all before it."""
    import struct
    import zlib
    if turns not in (1, 2, 4):
        sys.exit(f"--weights-file: turns {turns}: 1, 2 or 4")
    head = b"DYEFNET\n" + struct.pack(
        "<9I", 1, SIDE, net.f2.out_features, turns, net.c1.in_channels, net.c1.out_channels,
        net.c2.out_channels, net.c3.out_channels, net.f1.out_features) + struct.pack("<f", NORM_EPS)
    body = b"".join(t.detach().numpy().astype("<f4").tobytes()
                    for l in (net.c1, net.c2, net.c3, net.f1, net.f2) for t in (l.weight, l.bias))
    data = head + body
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data + struct.pack("<I", zlib.crc32(data) & 0xFFFFFFFF))
    os.replace(tmp, path)


def write_check(net, crops, path, n=6):
    """A few training crops and torch's probabilities for them: the C
    forward pass must give the same (tests/unit/test_vis_face_net.c)."""
    idx = np.linspace(0, len(crops) - 1, n).astype(int)
    p = predict(net, crops[idx])
    with open(path, "w") as f:
        f.write("# crop bytes (hex, RGB rows) then the 7 probabilities torch gives;"
                " written by tools/fnet/train_face_net.py with the weights\n")
        for i, row in zip(idx, p):
            f.write(crops[i].tobytes().hex() + "\n")
            f.write(" ".join(f"{v:.7f}" for v in row) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("crops")
    ap.add_argument("--epochs", type=int, default=24)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--fold")
    ap.add_argument("--out", default="vision/face_net_weights")
    ap.add_argument("--predict")
    ap.add_argument("--turns", type=int, default=1)
    ap.add_argument("--synth", help="synth_dice.py's crops (split 3), trained on with the rest")
    ap.add_argument("--photos", choices=("tuning", "all"), default="tuning",
                    help="the photos learnt from: 2019-12-08 only, or both days")
    ap.add_argument("--calib", help="K/N: train photos of index K mod N fit the temperature, unlearnt")
    ap.add_argument("--report", action="store_true", help="held-out accuracy, rejection, reliability")
    ap.add_argument("--weights-file", metavar="OUT",
                    help="also write the net as a weights file (docs/vision.md)")
    ap.add_argument("--weights-turns", type=int, default=4,
                    help="the quarter turns the net is to be read at (the weights file's and"
                    " the generated header's FNET_TURNS): 4 for a net trained as today's, 1 for"
                    " one trained to need no turns")
    ap.add_argument("--save")
    ap.add_argument("--load")
    ap.add_argument("--check", help="default: tests/data/face-net-check.txt for the default"
                    " --out, else OUT-check.txt (a fold's net must not replace the test's)")
    a = ap.parse_args()
    torch.set_num_threads(int(os.environ.get("FNET_THREADS", os.cpu_count() or 1)))
    cls, split, photo, crops = load(os.path.join(a.crops, "train.bin"))
    if a.synth:
        scls, ssplit, sphoto, scrops = load(a.synth)
        if np.any(ssplit != 3):
            sys.exit(f"{a.synth}: not synth_dice.py's records (split 3)")
        cls, split = np.concatenate([cls, scls]), np.concatenate([split, ssplit])
        photo, crops = np.concatenate([photo, sphoto]), np.concatenate([crops, scrops])
    if a.photos == "all" and not np.any(split % 2 == 1):
        sys.exit(f"{a.crops}/train.bin has no held-out crops: cut it with face_crops --all-photos")
    real = (split <= 1) | (split >= 4)
    keep = is_train(split) | ((a.photos == "all") & real)
    if a.fold:
        k, n = (int(v) for v in a.fold.split("/"))
        keep &= (photo % n != k) | ~real
    if a.calib:
        ck, cn = (int(v) for v in a.calib.split("/"))
        keep &= (photo % cn != ck) | ~real
    if a.load:
        net = FaceNet()
        net.load_state_dict(torch.load(a.load))
        net.eval()
    else:
        net = train(crops[keep], learnt(cls[keep]), a.epochs, a.seed)
    temp = 1.0
    if a.calib:
        ecls, esplit, ephoto, ecrops = load(os.path.join(a.crops, "eval.bin"))
        m = is_train(esplit) & (esplit != 2) & (esplit != 3) & (ephoto % cn == ck)
        temp = fit_temperature(logits_of(net, ecrops[m], 4), learnt(ecls[m]))
        print(f"calibration: {int(m.sum())} finds of {len(set(ephoto[m].tolist()))} photos, "
              f"temperature {temp:.3f}", file=sys.stderr)
        with torch.no_grad():
            net.f2.weight /= temp
            net.f2.bias /= temp
    if a.save:
        torch.save(net.state_dict(), a.save)
    if a.predict:
        ecls, esplit, ephoto, ecrops = load(os.path.join(a.crops, "eval.bin"))
        sel = (esplit == 0) | ((esplit == 1) & (a.photos == "all"))  # the tray's, as weigh_fold.py reads
        if a.fold:
            sel &= ephoto % n == k
        p = predict(net, ecrops[sel], a.turns)
        with open(a.predict, "w") as f:
            for i, row in zip(np.nonzero(sel)[0], p):
                f.write(f"{i} " + " ".join(f"{v:.5f}" for v in row) + "\n")
    if a.report:
        report(net, a.crops, temp)
    if a.weights_file:
        write_weights_file(net, a.weights_file, a.weights_turns)
    if not a.fold:
        export(net, a.out, f"Seed {a.seed}, {a.epochs} epochs, {int(keep.sum())} crops"
               + (f", temperature {temp:.3f} from --calib {a.calib}." if a.calib else "."),
               a.weights_turns)
        check = a.check or ("tests/data/face-net-check.txt" if a.out == "vision/face_net_weights"
                            else a.out + "-check.txt")
        write_check(net, crops[keep], check)


if __name__ == "__main__":
    main()
