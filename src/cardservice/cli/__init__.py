"""The command line (`cardservice …`, Click): the root group, the server's commands, the
argument types and progress output that every command module (`arguments.py`) uses."""
