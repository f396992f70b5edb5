#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""start_state.py - bench/start-state: does a single THP burst's outcome depend on the
fragmented state it starts from, or on what happens during the burst?

An experiment record, not part of the tool (README.md here says why it is Python). It boots
the tool's own guest (a cached kernel and initramfs of `compactbench run`, /init replaced),
fragments memory as the thp-frag workload does (frag-anon --size 0.9 --pattern every-other,
after drop_caches + compact_memory, vm.compaction_proactiveness 0), and then either

  fresh: sets the setting's proactiveness, settles, runs thp-demand --size 0.3 (the cell
         as `compactbench run` has it: every repetition a new fragmentation), or
  saved: saves the guest (QMP migrate to a file) once it is fragmented, and runs each
         repetition from that file (-incoming): the same setting, settle and demand, from
         the very same memory state.

Each run prints thp-demand's summary: huge pages got, vmstat's compact_stall and
compact_success during the demand, and the sum of the first-touch latencies (a stall-time
proxy: no trace is taken). Runs are interleaved. The state files (1 GiB each) are removed at
the end unless --keep.

usage: start_state.py --kernel BZIMAGE --initramfs CPIO --dir DIR
                      [--states 6] [--reps 2] [--fresh 6] [--settings 0,20] [--settle 5]
                      [--cpus 2] [--icount SHIFT]
"""
import argparse, json, os, shutil, socket, statistics, subprocess, sys, tempfile, time

INIT = r"""#!/bin/busybox sh
/bin/busybox --install -s /bin
export PATH=/bin:/opt/cb
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mount -t tmpfs tmpfs /tmp
W=/opt/cb/workloads
echo 0 > /proc/sys/vm/compaction_proactiveness
echo madvise > /sys/kernel/mm/transparent_hugepage/enabled
echo madvise > /sys/kernel/mm/transparent_hugepage/defrag
sync; echo 3 > /proc/sys/vm/drop_caches; echo 1 > /proc/sys/vm/compact_memory
$W/frag-anon --size 0.9 --pattern every-other > /tmp/frag.jsonl &
n=0
while ! grep -q '"ready"' /tmp/frag.jsonl && [ $n -lt 6000 ]; do usleep 100000; n=$((n+1)); done
echo "SNAPREADY $(cat /proc/uptime)"
read cmd pro settle < /dev/ttyS0
echo $pro > /proc/sys/vm/compaction_proactiveness
echo "GO $cmd $pro $settle $(cat /proc/uptime)"
sleep $settle
$W/thp-demand --size 0.3 --duration 30s > /tmp/d.jsonl
echo "SUMMARY $(grep '"summary"' /tmp/d.jsonl | tail -1)"
echo "DONE $(cat /proc/uptime)"
reboot -f
"""


LIVE = []  # guests to kill if the experiment stops early (an error, SIGINT)


class Guest:
    """one QEMU: serial console and QMP on unix sockets in @work"""

    def __init__(self, a, work, tag, incoming=None):
        self.ser, self.qmp = os.path.join(work, tag + ".ser"), os.path.join(work, tag + ".qmp")
        args = ["qemu-system-x86_64", "-accel", "tcg", "-cpu", "max", "-m", "1024",
                "-smp", str(a.cpus), "-kernel", a.kernel, "-initrd", a.own_initramfs,
                "-append", "console=ttyS0 panic=-1 reboot=t tsc=reliable",
                "-display", "none", "-no-reboot", "-nic", "none",
                "-chardev", f"socket,id=s0,path={self.ser},server=on,wait=off",
                "-serial", "chardev:s0", "-qmp", f"unix:{self.qmp},server=on,wait=off"]
        if a.icount is not None:  # the qemu target's clock = icount (qemu_conf.h)
            args += ["-icount", f"shift={a.icount},sleep=off"]
        if incoming:
            args += ["-incoming", f"exec:cat {incoming}"]
        self.log = open(os.path.join(work, tag + ".console"), "ab")
        self.p = subprocess.Popen(args, stdin=subprocess.DEVNULL, stdout=self.log,
                                  stderr=self.log)
        LIVE.append(self)
        for _ in range(400):
            if os.path.exists(self.ser) and os.path.exists(self.qmp):
                break
            if self.p.poll() is not None:
                raise RuntimeError(f"qemu exited at start ({self.log.name})")
            time.sleep(0.05)
        self.s = socket.socket(socket.AF_UNIX)
        self.s.connect(self.ser)
        q = socket.socket(socket.AF_UNIX)
        q.connect(self.qmp)
        self.q = q.makefile("rw")
        self.q.readline()
        self.cmd("qmp_capabilities")

    def cmd(self, name, **args):
        self.q.write(json.dumps({"execute": name, "arguments": args}) + "\n")
        self.q.flush()
        for _ in range(1000):  # skip events
            r = json.loads(self.q.readline())
            if "return" in r or "error" in r:
                return r
        raise RuntimeError(f"QMP {name}: no answer")

    def until(self, word, limit):
        buf, t0 = b"", time.time()
        self.s.settimeout(2)
        while time.time() - t0 < limit:
            try:
                d = self.s.recv(65536)
            except socket.timeout:
                continue
            if not d:
                break
            buf += d
            self.log.write(d)
            if word.encode() in buf:
                return buf.decode(errors="replace")
        self.kill()
        raise RuntimeError(f"no {word} on the console in {limit} s ({self.log.name})")

    def kill(self):
        if self.p.poll() is None:
            self.p.kill()
        self.p.wait()

    def done(self, limit=60):
        try:
            self.p.wait(limit)
        except subprocess.TimeoutExpired:
            self.kill()


def result(text, **extra):
    for line in text.splitlines():
        if line.startswith("SUMMARY "):
            j = json.loads(line[len("SUMMARY "):])
            v = j["vmstat_delta_system"]
            return dict(extra, huge=j["huge"], regions=j["regions"],
                        compact_stall=v.get("compact_stall"),
                        compact_success=v.get("compact_success"),
                        fault_sum_ms=round(j["fault_ns"]["mean"] * j["regions"] / 1e6, 1))
    raise RuntimeError("no SUMMARY line")


def go(a, pro):
    return f"go {pro} {a.settle}\n".encode()


def fresh(a, work, pro):
    g = Guest(a, work, "fresh")
    g.until("SNAPREADY", 600)
    g.s.send(go(a, pro))
    text = g.until("DONE", 300)
    g.done()
    return result(text, start="fresh", setting=pro)


def save(a, work, path):
    g = Guest(a, work, "save")
    g.until("SNAPREADY", 600)
    g.cmd("stop")
    r = g.cmd("migrate", uri=f"exec:cat > {path}")
    if "error" in r:
        g.kill()
        raise RuntimeError(f"migrate: {r['error']}")
    for _ in range(1200):
        st = g.cmd("query-migrate")["return"].get("status")
        if st in ("completed", "failed", "cancelled"):
            break
        time.sleep(0.5)
    g.cmd("quit")
    g.done()
    if st != "completed":
        raise RuntimeError(f"migrate to {path}: {st}")


def load(a, work, path, state, pro):
    g = Guest(a, work, "load", incoming=path)
    for _ in range(1200):
        st = g.cmd("query-status")["return"]["status"]
        if st == "running":
            break
        if st != "inmigrate":  # saved stopped: the destination stays paused
            g.cmd("cont")
        time.sleep(0.1)
    g.s.send(go(a, pro))
    text = g.until("DONE", 300)
    g.done()
    return result(text, start=state, setting=pro)


def own_initramfs(a, work):
    root = os.path.join(work, "root")
    os.mkdir(root)
    with open(a.initramfs, "rb") as f:
        subprocess.run(["cpio", "-idm", "--quiet"], stdin=f, cwd=root, check=True)
    with open(os.path.join(root, "init"), "w") as f:
        f.write(INIT)
    os.chmod(os.path.join(root, "init"), 0o755)
    names = subprocess.run(["find", "."], cwd=root, capture_output=True, check=True).stdout
    out = os.path.join(work, "init.cpio")
    with open(out, "wb") as f:
        subprocess.run(["cpio", "-o", "-H", "newc", "--quiet"], input=names, cwd=root,
                       stdout=f, check=True)
    shutil.rmtree(root)
    return out


def cv(v):
    return statistics.stdev(v) / statistics.mean(v) if len(v) > 1 and statistics.mean(v) else 0


def report(rows):
    groups = {}
    for r in rows:
        groups.setdefault((r["setting"], r["start"]), []).append(r)
    print("setting  start     n  huge pages got      compact_success   first-touch sum ms")
    for (pro, start), v in sorted(groups.items()):
        h, c, t = ([r[k] for r in v] for k in ("huge", "compact_success", "fault_sum_ms"))
        print(f"{pro:>7}  {start:8} {len(v):2}  {min(h):3}-{max(h):3} CV {cv(h):4.0%}"
              f"   {min(c):3}-{max(c):3} CV {cv(c):4.0%}"
              f"   {min(t):6.0f}-{max(t):6.0f} CV {cv(t):4.0%}")


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--kernel", required=True)
    p.add_argument("--initramfs", required=True, help="an initramfs of compactbench run")
    p.add_argument("--dir", required=True, help="where the results (results.jsonl) go")
    p.add_argument("--states", type=int, default=6)
    p.add_argument("--reps", type=int, default=2, help="runs per saved state and setting")
    p.add_argument("--fresh", type=int, default=6, help="fresh runs per setting")
    p.add_argument("--settings", default="0,20", help="vm.compaction_proactiveness values")
    p.add_argument("--settle", type=int, default=5)
    p.add_argument("--keep", action="store_true", help="keep the saved states")
    p.add_argument("--cpus", type=int, default=2, help="guest vCPUs")
    p.add_argument("--icount", type=int, metavar="SHIFT",
                   help="a guest clock that counts instructions, 2^SHIFT ns each (--cpus 1)")
    a = p.parse_args()
    settings = [int(s) for s in a.settings.split(",")]
    for f in (a.kernel, a.initramfs):
        if not os.path.isfile(f):
            sys.exit(f"start_state.py: {f}: no such file")
    if not (1 <= a.states <= 20 and 1 <= a.reps <= 20 and 0 <= a.fresh <= 40):
        sys.exit("start_state.py: --states 1-20, --reps 1-20, --fresh 0-40")
    if not 1 <= a.cpus <= 8 or (a.icount is not None and (a.cpus != 1 or
                                                          not 0 <= a.icount <= 10)):
        sys.exit("start_state.py: --cpus 1-8; --icount 0-10 needs --cpus 1 (QEMU 7.2 hangs "
                 "at the second vCPU's bring-up when it counts instructions)")
    os.makedirs(a.dir, exist_ok=True)
    out = os.path.join(a.dir, "results.jsonl")
    work = tempfile.mkdtemp(prefix="cb-start-state.", dir=a.dir)
    try:
        a.own_initramfs = own_initramfs(a, work)
        states = []
        for i in range(a.states):
            path = os.path.join(work, f"state{i + 1}.bin")
            print(f"saving fragmented state {i + 1}/{a.states}", flush=True)
            save(a, work, path)
            states.append(path)
        # interleaved: each round runs every (state, setting) once and a fresh run per setting
        plan = []
        for rnd in range(max(a.reps, a.fresh)):
            if rnd < a.reps:
                plan += [("saved", s, pro) for s in range(a.states) for pro in settings]
            if rnd < a.fresh:
                plan += [("fresh", None, pro) for pro in settings]
        rows = []
        for n, (kind, s, pro) in enumerate(plan, 1):
            print(f"run {n}/{len(plan)}: {kind} {'' if s is None else f'state{s + 1} '}"
                  f"proactiveness {pro}", flush=True)
            r = fresh(a, work, pro) if kind == "fresh" else \
                load(a, work, states[s], f"state{s + 1}", pro)
            rows.append(r)
            with open(out, "a") as f:
                f.write(json.dumps(r) + "\n")
        report(rows)
        print(f"results: {out}")
    finally:
        for g in LIVE:
            g.kill()
        if a.keep:
            print(f"kept: {work}")
        else:
            # QEMU and cpio got the same SIGINT and may still be removing their files
            for _ in range(20):
                shutil.rmtree(work, ignore_errors=True)
                if not os.path.exists(work):
                    break
                time.sleep(0.1)
            else:
                print(f"start_state.py: could not remove {work}", file=sys.stderr)


if __name__ == "__main__":
    main()
