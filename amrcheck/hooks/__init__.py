"""pre-commit hooks: thin ``main(argv) -> int`` wrappers over the engine.

One module per hook, each the console script of the same name and an
entry of ``.pre-commit-hooks.yaml``: ``amr-check`` (:mod:`.check`),
``amr-regress`` (:mod:`.regress`), ``amr-iaa`` (:mod:`.iaa`). Exit status:
0 pass, 1 a file fails, 2 a configuration error (message on stderr).
Configuration and output are documented in ``docs/hooks.md``.
"""
