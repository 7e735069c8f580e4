"""Training the learned metrics: each trainer writes the weights a metric loads.

Layer: training, above the metrics and the benchmarks, below the front
ends. :mod:`.amrsim` trains AMRSim's model (:mod:`amrcheck.learned`:
contrastive tension, then optionally a supervised stage; needs the
``learned`` extra); :mod:`.wwlk_theta` fits WWLKθ's edge weights to human
scores by SPSA. The trainers read BAMBOO (:mod:`amrcheck.benchmarks`), so
they sit above it; the model they train sits below the metrics.
Importing this package imports neither trainer (nor torch).
"""
