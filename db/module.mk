# db/: the event log (SQLite). Everything it needs is in the common PKGS.
