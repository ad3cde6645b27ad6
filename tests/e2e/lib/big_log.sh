# Shared by the big-log scripts (cli_big_log.sh, db_import_big.sh): a
# valid Beer Die log of any length, generated on the fly (needs python3),
# and a bound on the address space that holds under emulation too.

# An arm64 or armhf build run here goes through qemu-user (binfmt_misc):
# the process is qemu, and a ulimit -v bounds qemu's own 128 MiB translation
# buffer, which it cannot allocate, not dyeref. There the bound goes to the
# guest alone: QEMU_RESERVED_VA is the guest's whole address space (binary,
# libraries, stack, heap), as ulimit -v is a native process's.
# Source after lib/cli.sh ($dyeref).
elf_machine() { od -An -tx1 -j18 -N2 "$1" | tr -d ' \n'; }
emulated=""
[ "$(elf_machine "$dyeref")" = "$(elf_machine "$BASH")" ] || emulated=1
# limited COMMAND...: exec COMMAND with its address space bounded to
# $limit_kb (in a subshell; none when limit_kb is empty).
limited() {
	[ -n "${limit_kb:-}" ] || exec "$@"
	if [ -n "$emulated" ]; then
		QEMU_RESERVED_VA=${limit_kb}K exec "$@"
	fi
	ulimit -v "$limit_kb" && exec "$@"
}

# big_log BYTES [correct]: a valid log of about BYTES bytes on stdout,
# blocks of four throws (a1 scores, a2 caught, b1 scores, b2 caught), so
# no lead ever reaches 2 and the game never ends; "score A B" of the final
# line on fd 3. With "correct", a last line corrects the last throw into
# B's point.
big_log() {
	python3 - "$@" <<'EOF'
import os, sys
target = int(sys.argv[1]); correct = len(sys.argv) > 2
out = sys.stdout.buffer
def throw(half, x, last):
    return ('{"type":"throw","events":[{"at":"table","half":"%s","x":%s,"y":0.61,'
            '"source":"piezo","confidence":0.97,"t_ns":%%d},%s]}\n' % (half, x, last))
block = [throw("B", "1.9", '{"at":"floor","source":"piezo"}'),
         throw("B", "1.9", '{"at":"catch","by":"b1","source":"console"}'),
         throw("A", "0.5", '{"at":"floor","source":"piezo"}'),
         throw("A", "0.5", '{"at":"catch","by":"a1","source":"console"}')]
head = b'{"type":"match","game":"beerdie"}\n'
out.write(head)
n, k, t, chunk = len(head), 0, 1000, []
while n < target:
    for line in block:
        s = (line % t).encode()
        t += 1000000
        n += len(s)
        chunk.append(s)
    k += 1
    if len(chunk) >= 4096:
        out.write(b"".join(chunk))
        chunk = []
out.write(b"".join(chunk))
a, b = k, k
if correct:
    out.write(('{"type":"correct","throw":%d,"events":[{"at":"table","half":"A"},'
               '{"at":"floor"}]}\n' % (4 * k)).encode())
    b += 1
out.flush()
os.write(3, b"%d %d\n" % (a, b))
EOF
}
