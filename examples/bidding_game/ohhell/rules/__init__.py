"""The rules of Oh Hell, one markdown text per language (``ohhell.<lang>.md``)."""
