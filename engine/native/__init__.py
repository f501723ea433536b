"""Native code of our own: the C helpers in csrc/ (built at install by setup.py, found by
build.py, checked against their headers by abi.py) and the llama.cpp patch series (patches/,
applied by bootstrap.py to the llama-cpp-python sdist). The lowest engine folder: it imports
no other; the self-test that loads each helper through its users is
engine/runtime/devices/native_check.py."""
