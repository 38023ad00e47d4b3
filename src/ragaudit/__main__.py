"""``python -m ragaudit``."""

from ragaudit._cli.main import main

main()
