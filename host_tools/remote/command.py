"""`python -m host_tools remote`: one table of a game across tables (docs/remote.md), its
seat played at the terminal (host_tools/remote/table.py) or by a board on the table's
serial port (`--port`: host_tools/remote/boardbridge.py, which builds on table.py's
Table; wired here, so that neither module imports the other both ways)."""

from host_tools.remote import boardbridge, table


def main(argv):
    return table.main(argv, boardbridge)
