#!/bin/sh
# A stand-in for a toolchain program in the analysis tests, which never run actions.
exit 1
