"""Reading and writing AMR source text.

Layer: engine, on top of the core (:mod:`amrcheck.graph`, :mod:`amrcheck.span`).
``files`` opens input files (regular files only, bounded, never
blocking); ``_parse`` turns text into entries whose graphs keep source offsets;
``corpus`` reads files (whole, in chunks or in parts); ``incremental``
re-reads only the blocks an edit touched; ``layout`` formats graphs;
``locate`` answers "what is at this offset?" for editors; ``tokens``
holds PENMAN's token patterns, once for the reader, the validator and the
editor.
"""

from ._parse import Entry

__all__ = ["Entry"]
