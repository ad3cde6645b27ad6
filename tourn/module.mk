# tourn/: a tournament's brackets and standings (pure C, no dependencies).
# Unit tests link every module's archive, so tests/unit/test_tourn*.c need
# no rule of their own.
LIB_MODULES += tourn
