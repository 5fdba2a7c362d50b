"""The rules of Tricklet, one markdown text per language (``tricklet.<lang>.md``)."""
