"""Pairing the graphs of two or more files: by ``::id`` or by position.

Layer: engine, on top of :mod:`amrcheck.reading` and the metrics.
``graphs`` pairs corpora in memory (the rules every front end shares);
``streaming`` does the same for files of any size, read in step chunk by
chunk; ``parts`` cuts files so that worker processes read and pair their
own parts.
"""
