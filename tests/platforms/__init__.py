"""The platforms through their fakes: telegram/ (a fake Bot API), discord/ (a fake Discord REST API), console/ (the
terminal chat)."""
