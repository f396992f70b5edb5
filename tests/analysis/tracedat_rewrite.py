#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tracedat_rewrite.py - rewrite a little-endian version 6 trace.dat (man 5 trace-cmd.dat.v6).

  tracedat_rewrite.py IN.dat OUT.dat [--big-endian] [--no-ftrace] [--max-pages N]

--big-endian  write every number in big-endian order: the headers, sections, options and CPU
              offsets, each ring-buffer page (timestamp, commit, each event's type_len/
              time_delta word, which big-endian kernels lay out with type_len in the top 5
              bits, lengths, extends) and each event's fields, swapped by the sizes its
              format gives. The events stay the same: trace-cmd report prints the same lines.
--no-ftrace   drop the ftrace event formats (the events of the ftrace plugins), to make a
              small file (fuzz seeds)
--max-pages N keep at most N pages per CPU
--misalign    place the CPU data 8 bytes past a page boundary (libtracecmd cannot mmap it
              and says so on stderr, then reads it)

Used by tests/analysis (the big-endian fixture) and to make the fuzz seeds.
"""
import re
import struct
import sys


class Reader:
    def __init__(self, data):
        self.d, self.p = data, 0

    def take(self, n):
        if self.p + n > len(self.d):
            raise ValueError("truncated at %d" % self.p)
        b = self.d[self.p:self.p + n]
        self.p += n
        return b

    def u(self, n):
        return int.from_bytes(self.take(n), "little")

    def cstr(self):
        e = self.d.index(b"\0", self.p)
        s = self.d[self.p:e]
        self.p = e + 1
        return s


def parse_format(text):
    """the event id and its fields (offset, size, element size) from a format file"""
    eid = int(re.search(rb"^ID: (\d+)", text, re.M).group(1))
    fields = []
    for m in re.finditer(rb"field:([^;]*);\s*offset:(\d+);\s*size:(\d+);", text):
        decl, off, size = m.group(1).strip(), int(m.group(2)), int(m.group(3))
        elem = size
        arr = re.search(rb"\[(\d+)\]$", decl)
        if arr and int(arr.group(1)):
            elem = size // int(arr.group(1))
        if b"__data_loc" in decl or b"__rel_loc" in decl:
            elem = 4
        elif re.search(rb"\bchar\b", decl) and arr:
            elem = 1
        fields.append((off, size, elem))
    return eid, fields


def parse(data):
    r = Reader(data)
    f = {"magic": r.take(10), "version": r.cstr()}
    assert f["version"] == b"6", "only version 6"
    endian, f["long"] = r.take(1)[0], r.take(1)[0]
    assert endian == 0, "only little-endian input"
    f["psize"] = r.u(4)
    assert r.take(12) == b"header_page\0"
    f["header_page"] = r.take(r.u(8))
    assert r.take(13) == b"header_event\0"
    f["header_event"] = r.take(r.u(8))
    f["ftrace"] = [r.take(r.u(8)) for _ in range(r.u(4))]
    f["systems"] = []
    for _ in range(r.u(4)):
        name = r.cstr()
        f["systems"].append((name, [r.take(r.u(8)) for _ in range(r.u(4))]))
    f["kallsyms"] = r.take(r.u(4))
    f["printk"] = r.take(r.u(4))
    f["cmdlines"] = r.take(r.u(8))
    f["cpus"] = r.u(4)
    f["options"] = []
    while True:
        label = r.take(10)
        if label == b"flyrecord\0":
            break
        assert label == b"options  \0", label
        while True:
            oid = r.u(2)
            if oid == 0:
                break
            f["options"].append((oid, r.take(r.u(4))))
    f["cpu"] = []
    for _ in range(f["cpus"]):
        off, size = r.u(8), r.u(8)
        f["cpu"].append(data[off:off + size])
    # the clock text after the CPU offsets (size 8 + text), when trace-cmd wrote one
    try:
        f["clock"] = r.take(r.u(8))
    except ValueError:
        f["clock"] = None
    return f


def swap_page(page, csize, formats):
    out = bytearray(page)
    ts = int.from_bytes(page[0:8], "little")
    out[0:8] = ts.to_bytes(8, "big")
    flags = int.from_bytes(page[8:8 + csize], "little")
    out[8:8 + csize] = flags.to_bytes(csize, "big")
    commit = flags & ((1 << 27) - 1)
    start, off = 8 + csize, 0
    if flags & (1 << 31) and flags & (1 << 30):
        p = start + commit
        out[p:p + csize] = int.from_bytes(page[p:p + csize], "little").to_bytes(csize, "big")
    while off < commit:
        p = start + off
        word = int.from_bytes(page[p:p + 4], "little")
        tl, delta = word & 31, word >> 5
        out[p:p + 4] = ((tl << 27) | delta).to_bytes(4, "big")
        if tl in (29, 30, 31):
            v = int.from_bytes(page[p + 4:p + 8], "little")
            out[p + 4:p + 8] = v.to_bytes(4, "big")
            off = off + 4 + v if tl == 29 else off + 8
            continue
        if tl == 0:
            ln = int.from_bytes(page[p + 4:p + 8], "little")
            out[p + 4:p + 8] = ln.to_bytes(4, "big")
            body, blen = p + 8, ((ln - 4) + 3) & ~3
        else:
            body, blen = p + 4, tl * 4
        eid = int.from_bytes(page[body:body + 2], "little")
        for foff, size, elem in formats.get(eid, []):
            if elem not in (2, 4, 8):
                continue
            for k in range(body + foff, body + foff + size, elem):
                v = int.from_bytes(page[k:k + elem], "little")
                out[k:k + elem] = v.to_bytes(elem, "big")
        off = body + blen - start
    return bytes(out)


def write(f, big, no_ftrace, max_pages, misalign=0):
    order = "big" if big else "little"

    def n(v, k):
        return v.to_bytes(k, order)

    csize = int(re.search(rb"commit;\s*offset:\d+;\s*size:(\d+);", f["header_page"]).group(1))
    formats = {}
    for _, evs in f["systems"]:
        for text in evs:
            eid, fields = parse_format(text)
            formats[eid] = fields
    out = bytearray(f["magic"] + f["version"] + b"\0" + bytes([1 if big else 0, f["long"]]))
    out += n(f["psize"], 4)
    out += b"header_page\0" + n(len(f["header_page"]), 8) + f["header_page"]
    out += b"header_event\0" + n(len(f["header_event"]), 8) + f["header_event"]
    ftrace = [] if no_ftrace else f["ftrace"]
    out += n(len(ftrace), 4)
    for text in ftrace:
        out += n(len(text), 8) + text
    out += n(len(f["systems"]), 4)
    for name, evs in f["systems"]:
        out += name + b"\0" + n(len(evs), 4)
        for text in evs:
            out += n(len(text), 8) + text
    out += n(len(f["kallsyms"]), 4) + f["kallsyms"]
    out += n(len(f["printk"]), 4) + f["printk"]
    out += n(len(f["cmdlines"]), 8) + f["cmdlines"]
    out += n(f["cpus"], 4)
    if f["options"]:
        out += b"options  \0"
        for oid, data in f["options"]:
            if big and oid in (8, 11) and len(data) in (4, 8):   # CPUCOUNT, TRACEID
                data = data[::-1]
            out += n(oid, 2) + n(len(data), 4) + data
        out += n(0, 2)
    out += b"flyrecord\0"
    psize = f["psize"]
    cpu = [c[:max_pages * psize] if max_pages else c for c in f["cpu"]]
    table = len(out) + 16 * f["cpus"] + (8 + len(f["clock"]) if f["clock"] is not None else 0)
    pos = (table + psize - 1) // psize * psize + misalign
    offs = []
    for c in cpu:
        offs.append(pos if c else 0)
        pos = (pos + len(c) + psize - 1) // psize * psize + misalign
    for c, o in zip(cpu, offs):
        out += n(o, 8) + n(len(c), 8)
    if f["clock"] is not None:
        out += n(len(f["clock"]), 8) + f["clock"]
    for c, o in zip(cpu, offs):
        if not c:
            continue
        out += b"\0" * (o - len(out))
        for k in range(0, len(c), psize):
            page = c[k:k + psize]
            out += swap_page(page, csize, formats) if big else page
    return bytes(out)


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    big, no_ftrace = "--big-endian" in argv, "--no-ftrace" in argv
    max_pages = 0
    if "--max-pages" in argv:
        max_pages = int(argv[argv.index("--max-pages") + 1])
        args.remove(str(max_pages))
    if len(args) != 2 or "--help" in argv:
        print(__doc__)
        return 0 if "--help" in argv else 2
    with open(args[0], "rb") as fh:
        f = parse(fh.read())
    with open(args[1], "wb") as fh:
        fh.write(write(f, big, no_ftrace, max_pages, 8 if "--misalign" in argv else 0))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
