"""Rule tests of pure modules (kernel, features, grading, text, i18n, the registry and the code-wide checks), with
hand-written fakes only: fast, no server, no process."""
