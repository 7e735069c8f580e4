"""Running long jobs: worker processes, batches, progress and interruption.

Layer: engine, below the workflows; it knows nothing of AMR. ``parallel``
maps a function over items in forked workers; ``progress`` runs batches
of work with a progress callback and a clean stop on errors or Ctrl-C.
"""
