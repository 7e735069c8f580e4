"""Read one string column of a Parquet file without pyarrow.

Only what the GloVe package's word index needs: a flat schema, a
``BYTE_ARRAY`` column stored PLAIN and/or dictionary encoded, data pages
v1 or v2, uncompressed or Snappy compressed, no null values. Anything
else raises :class:`ParquetError` (the message names the feature), so a
changed upstream file fails loudly instead of yielding wrong words.

It exists so the ``glove`` extra does not pull in pyarrow (~170 MB) just to
read a 3.6 MB word list once; the result is cached as plain text (see
:mod:`amrcheck.embeddings`). Format references: the Parquet format spec
(``parquet.thrift``, Encodings.md) and the Snappy format description.
"""

from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import AmrError

_MAGIC = b"PAR1"
# parquet.thrift enums used here
_BYTE_ARRAY = 6
_UNCOMPRESSED, _SNAPPY = 0, 1
_DATA_PAGE, _DICTIONARY_PAGE, _DATA_PAGE_V2 = 0, 2, 3
_PLAIN, _PLAIN_DICTIONARY, _RLE_DICTIONARY = 0, 2, 8
_OPTIONAL = 1


class ParquetError(AmrError):
    """The file is not a Parquet file this reader understands."""


class _Thrift:
    """A Thrift compact-protocol reader: structs become ``{field id: value}``."""

    def __init__(self, data: bytes, pos: int = 0) -> None:
        self.data = data
        self.pos = pos

    def varint(self) -> int:
        result = shift = 0
        while True:
            byte = self.data[self.pos]
            self.pos += 1
            result |= (byte & 0x7F) << shift
            if not byte & 0x80:
                return result
            shift += 7

    def zigzag(self) -> int:
        n = self.varint()
        return (n >> 1) ^ -(n & 1)

    def value(self, kind: int) -> Any:  # noqa: C901 (one branch per wire type)
        if kind in (1, 2):  # bool inside a struct: the type is the value
            return kind == 1
        if kind == 3:
            self.pos += 1
            return self.data[self.pos - 1]
        if kind in (4, 5, 6):
            return self.zigzag()
        if kind == 7:
            self.pos += 8
            return struct.unpack_from("<d", self.data, self.pos - 8)[0]
        if kind == 8:
            size = self.varint()
            self.pos += size
            return self.data[self.pos - size : self.pos]
        if kind in (9, 10):
            header = self.data[self.pos]
            self.pos += 1
            size, element = header >> 4, header & 0x0F
            if size == 15:
                size = self.varint()
            if element in (1, 2):  # bools in a list are one byte each
                out = list(self.data[self.pos : self.pos + size])
                self.pos += size
                return [b == 1 for b in out]
            return [self.value(element) for _ in range(size)]
        if kind == 11:
            size = self.varint()
            if not size:
                return {}
            types = self.data[self.pos]
            self.pos += 1
            return {
                self.value(types >> 4): self.value(types & 0x0F) for _ in range(size)
            }
        if kind == 12:
            return self.struct()
        raise ParquetError(f"unknown Thrift type {kind}")

    def struct(self) -> dict[int, Any]:
        fields: dict[int, Any] = {}
        last = 0
        while True:
            header = self.data[self.pos]
            self.pos += 1
            if header == 0:
                return fields
            delta, kind = header >> 4, header & 0x0F
            last = last + delta if delta else self.zigzag()
            fields[last] = self.value(kind)


def snappy_decompress(data: bytes) -> bytes:
    """Decompress raw (unframed) Snappy data.

    Example:
        >>> snappy_decompress(bytes([6, 0x04]) + b"ab" + bytes([0x01, 0x02]))
        b'ababab'
    """
    reader = _Thrift(data)
    size = reader.varint()
    pos, out = reader.pos, bytearray()
    end = len(data)
    while pos < end:
        tag = data[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:  # literal
            length = tag >> 2
            if length >= 60:
                extra = length - 59
                length = int.from_bytes(data[pos : pos + extra], "little")
                pos += extra
            length += 1
            out += data[pos : pos + length]
            pos += length
            continue
        if kind == 1:
            length = ((tag >> 2) & 7) + 4
            offset = ((tag >> 5) << 8) | data[pos]
            pos += 1
        elif kind == 2:
            length = (tag >> 2) + 1
            offset = int.from_bytes(data[pos : pos + 2], "little")
            pos += 2
        else:
            length = (tag >> 2) + 1
            offset = int.from_bytes(data[pos : pos + 4], "little")
            pos += 4
        if not 0 < offset <= len(out):
            raise ParquetError("corrupt Snappy data (bad copy offset)")
        start = len(out) - offset
        if offset >= length:
            out += out[start : start + length]
        else:  # overlapping copy: the pattern repeats
            pattern = bytes(out[start:])
            out += (pattern * (length // offset + 1))[:length]
    if len(out) != size:
        raise ParquetError("corrupt Snappy data (wrong length)")
    return bytes(out)


def _rle_hybrid(data: bytes, bit_width: int, count: int) -> np.ndarray:
    """Decode ``count`` values of the RLE / bit-packed hybrid encoding."""
    reader = _Thrift(data)
    width_bytes = (bit_width + 7) // 8
    parts: list[np.ndarray] = []
    have = 0
    while have < count:
        header = reader.varint()
        if header & 1:  # bit-packed groups of 8 values, LSB first
            groups = header >> 1
            size = groups * bit_width
            raw = np.frombuffer(data, np.uint8, size, reader.pos)
            reader.pos += size
            bits = np.unpackbits(raw, bitorder="little").reshape(-1, bit_width)
            weights = 1 << np.arange(bit_width, dtype=np.int64)
            values = (
                bits.astype(np.int64) @ weights
                if bit_width
                else np.zeros(groups * 8, np.int64)
            )
            parts.append(values)
            have += groups * 8
        else:  # a run of one repeated value
            run = header >> 1
            value = int.from_bytes(
                data[reader.pos : reader.pos + width_bytes], "little"
            )
            reader.pos += width_bytes
            parts.append(np.full(run, value, np.int64))
            have += run
    return np.concatenate(parts)[:count] if parts else np.zeros(0, np.int64)


def _plain_strings(data: bytes, count: int) -> list[str]:
    out, pos = [], 0
    for _ in range(count):
        (size,) = struct.unpack_from("<I", data, pos)
        out.append(data[pos + 4 : pos + 4 + size].decode("utf-8"))
        pos += 4 + size
    return out


class _Column:
    """Decodes the pages of one column chunk into strings."""

    def __init__(self, codec: int, optional: bool) -> None:
        if codec not in (_UNCOMPRESSED, _SNAPPY):
            raise ParquetError(f"compression codec {codec} is not supported")
        self.codec = codec
        self.optional = optional
        self.dictionary: list[str] = []
        self.values: list[str] = []

    def _inflate(self, data: bytes) -> bytes:
        return snappy_decompress(data) if self.codec == _SNAPPY else data

    def page(self, header: dict[int, Any], body: bytes) -> None:
        kind = header[1]
        if kind == _DICTIONARY_PAGE:
            info = header[7]
            if info.get(2, _PLAIN) not in (_PLAIN, _PLAIN_DICTIONARY):
                raise ParquetError("dictionary page not PLAIN encoded")
            self.dictionary = _plain_strings(self._inflate(body), info[1])
        elif kind == _DATA_PAGE:
            info = header[5]
            data = self._inflate(body)
            count = info[1]
            if self.optional:  # definition levels: 4-byte length + RLE, width 1
                (size,) = struct.unpack_from("<I", data, 0)
                levels = _rle_hybrid(data[4 : 4 + size], 1, count)
                if not levels.all():
                    raise ParquetError("null values are not supported")
                data = data[4 + size :]
            self._values(info[2], data, count)
        elif kind == _DATA_PAGE_V2:
            info = header[8]
            if info.get(2, 0):
                raise ParquetError("null values are not supported")
            skip = info.get(5, 0) + info.get(6, 0)  # levels are never compressed
            data = body[skip:]
            if info.get(7, True):
                data = self._inflate(data)
            self._values(info[4], data, info[1])
        # index pages carry nothing we need

    def _values(self, encoding: int, data: bytes, count: int) -> None:
        if encoding == _PLAIN:
            self.values += _plain_strings(data, count)
        elif encoding in (_PLAIN_DICTIONARY, _RLE_DICTIONARY):
            indices = _rle_hybrid(data[1:], data[0], count)
            words = self.dictionary
            self.values += [words[i] for i in indices.tolist()]
        else:
            raise ParquetError(f"value encoding {encoding} is not supported")


def read_string_column(path: str | Path, name: str) -> list[str]:
    """All values of the string column ``name`` of the Parquet file ``path``.

    Raises:
        ParquetError: not Parquet, no such column, or a feature this
            reader does not support.
    """
    data = Path(path).read_bytes()
    if len(data) < 12 or data[:4] != _MAGIC or data[-4:] != _MAGIC:
        raise ParquetError(f"{path}: not a Parquet file")
    (footer_size,) = struct.unpack_from("<I", data, len(data) - 8)
    meta = _Thrift(data, len(data) - 8 - footer_size).struct()
    leaves = [s for s in meta[2][1:] if 5 not in s or not s[5]]  # no nesting
    names = [s[4].decode() for s in leaves]
    if name not in names:
        raise ParquetError(f"{path}: no column {name!r} (columns: {names})")
    index = names.index(name)
    schema = leaves[index]
    if schema.get(1) != _BYTE_ARRAY:
        raise ParquetError(f"{path}: column {name!r} is not a string column")
    values: list[str] = []
    for group in meta[4]:
        chunk = group[1][index][3]
        column = _Column(chunk[4], schema.get(3) == _OPTIONAL)
        pos = chunk.get(11) or chunk[9]
        end = pos + chunk[7]
        while pos < end:
            reader = _Thrift(data, pos)
            header = reader.struct()
            body = data[reader.pos : reader.pos + header[3]]
            column.page(header, body)
            pos = reader.pos + header[3]
        values += column.values
    if len(values) != meta[3]:
        raise ParquetError(f"{path}: read {len(values)} values of {meta[3]} rows")
    return values
