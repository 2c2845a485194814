#!/usr/bin/env python3
"""db_probe.py DIR BOARD...: reads positions from a solved-game database as
docs/database.md describes it, with Python's standard library alone, and
prints "BOARD VALUE DEPTH" a line (VALUE "unreachable" for a board play
cannot reach). BOARD is board text as the tool takes it: rows split by '/',
X, O and '.'. CI checks its answers against the tool's (scripts/check-db.sh),
so the format doc is proved readable by another language."""

import hashlib
import json
import math
import os
import struct
import sys
import zlib

BLOCK = 16384


def crc32c(data):
    """CRC-32C (Castagnoli), bit by bit: the format's block checksum."""
    crc = 0xFFFFFFFF
    for b in data:
        crc ^= b
        for _ in range(8):
            crc = (crc >> 1) ^ (0x82F63B78 & -(crc & 1))
    return crc ^ 0xFFFFFFFF


def colex(numbers):
    return sum(math.comb(s, i + 1) for i, s in enumerate(sorted(numbers)))


def rank_comb(n, xs, os_):
    """Layout comb: colex(X cells) * C(n-x, o) + colex(O cells renumbered
    among the cells X leaves empty)."""
    free = [c for c in range(n) if c not in xs]
    renumbered = [free.index(c) for c in os_]
    return colex(xs) * math.comb(n - len(xs), len(os_)) + colex(renumbered)


def rank_heights(rows, cols, xs, os_):
    """Layout heights: the groups of the ply's height vectors with smaller
    codes, then the colex rank of the X stones' slots."""
    occupied = xs | os_
    heights, slots, slot = [], [], 0
    for c in range(cols):
        h = 0
        while h < rows and (rows - 1 - h) * cols + c in occupied:
            if (rows - 1 - h) * cols + c in xs:
                slots.append(slot)
            h += 1
            slot += 1
        heights.append(h)
    p = sum(heights)
    code = sum(h * (rows + 1) ** c for c, h in enumerate(heights))
    before = 0
    for other in range(code):
        digits, r = [], other
        for _ in range(cols):
            digits.append(r % (rows + 1))
            r //= rows + 1
        if sum(digits) == p:
            before += 1
    return before * math.comb(p, (p + 1) // 2) + colex(slots)


def probe(folder, manifest, board):
    game = manifest["game"]
    rows, cols = game["rows"], game["cols"]
    cells = board.replace("/", "")
    xs = {i for i, ch in enumerate(cells) if ch in "Xx"}
    os_ = {i for i, ch in enumerate(cells) if ch in "Oo"}
    ply = len(xs) + len(os_)
    if ply >= len(manifest["plies"]):  # an opening book ends at max_ply
        return "past the book", ""
    if manifest["layout"] == "comb":
        rank = rank_comb(rows * cols, xs, os_)
    else:
        rank = rank_heights(rows, cols, xs, os_)
    with open(os.path.join(folder, manifest["plies"][ply]["file"]), "rb") as f:
        data = f.read()
    magic, version, fply, n, blocks = struct.unpack_from("<8sIIQQ", data, 0)
    assert magic == b"TTDBTIER" and version in (1, 3) and fply == ply
    head = 32
    if version == 3:  # the game: rows, cols, k, rules, four zero bytes
        rules = game["gravity"] | game["misere"] << 1
        assert data[32:40] == bytes([rows, cols, game["k"], rules, 0, 0, 0, 0]), "a tier of another game"
        head = 40
    table_end = head + 16 * blocks
    assert crc32c(data[:table_end]) == struct.unpack_from("<I", data, table_end)[0]
    offset, length, crc = struct.unpack_from("<QII", data, head + 16 * (rank // BLOCK))
    raw = data[offset:offset + length]
    assert crc32c(raw) == crc, "a damaged block"
    code = zlib.decompress(raw, -15)[rank % BLOCK]
    if code == 0:
        return "unreachable", ""
    return (code >> 6) - 2, code & 63


def read_manifest(folder):
    """The manifest, its checksum checked: the SHA-256 of the file with the
    checksum's own digits taken out."""
    with open(os.path.join(folder, "manifest.json"), "rb") as f:
        data = f.read()
    manifest = json.loads(data)
    seal = manifest["checksum"].encode()
    unsealed = data.replace(b'"checksum": "' + seal + b'"', b'"checksum": ""', 1)
    if hashlib.sha256(unsealed).hexdigest() != manifest["checksum"]:
        sys.exit(f"{folder}/manifest.json fails its checksum")
    return manifest


def main():
    folder = sys.argv[1]
    manifest = read_manifest(folder)
    for board in sys.argv[2:]:
        value, depth = probe(folder, manifest, board)
        print(board, value, depth)


if __name__ == "__main__":
    main()
