"""Rule tests of pure modules (kernel, features, grading, text, i18n, the registry and the code-wide checks), with
hand-written fakes only: fast (the folder runs in about 40 s), no server."""
