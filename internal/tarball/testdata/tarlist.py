"""Lists tar archives with Python's tarfile for FuzzPythonDifferential.

Reads blobs from stdin, each a 4-byte big-endian length then the bytes of
an uncompressed tar archive, and writes one JSON line per blob: the entries
in archive order (name as hex bytes, typeflag as hex, size, mode and, for
regular files, the SHA-256 of the content) and, when tarfile raised, the
error. Exits at the end of stdin.
"""
import hashlib
import io
import json
import struct
import sys
import tarfile


def listing(blob):
    entries = []
    try:
        with tarfile.open(fileobj=io.BytesIO(blob), mode="r:") as t:
            for m in t:
                e = {
                    "name": m.name.encode("utf-8", "surrogateescape").hex(),
                    "type": m.type.hex(),
                    "size": m.size,
                    "mode": m.mode,
                }
                if m.isreg():
                    e["sha256"] = hashlib.sha256(t.extractfile(m).read()).hexdigest()
                entries.append(e)
    except Exception as e:  # a refusal: the caller compares it with wopkit's
        return {"entries": entries, "error": "%s: %s" % (type(e).__name__, e)}
    return {"entries": entries}


def main():
    inp, out = sys.stdin.buffer, sys.stdout
    while True:
        n = inp.read(4)
        if len(n) < 4:
            return
        (size,) = struct.unpack(">I", n)
        blob = inp.read(size)
        out.write(json.dumps(listing(blob)) + "\n")
        out.flush()


main()
