#!/usr/bin/env python3
"""Convert gitleaks' default configuration (config/gitleaks.toml of a
gitleaks release) into the JSON internal/leaks embeds.

    python3 scripts/gitleaks-rules.py internal/leaks/gitleaks.toml internal/leaks/gitleaks.json

(`go generate ./internal/leaks` runs it.) Python 3.11 or later: its tomllib
reads the TOML, so wopkit carries no TOML parser. The output records the
input's sha256, which internal/leaks' tests hold to GitleaksSHA256; they
also run this script again (when python3 is there) and compare.
"""
import hashlib
import json
import sys
import tomllib


def main(src, dst):
    with open(src, "rb") as f:
        data = f.read()
    cfg = tomllib.loads(data.decode("utf-8"))
    out = {"sourceSha256": hashlib.sha256(data).hexdigest()}
    out.update(cfg)
    with open(dst, "w", encoding="utf-8", newline="\n") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
