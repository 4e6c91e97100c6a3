#!/bin/sh
# Stands in for mpirun in tests: prints how cmmc --run starts the job.
echo "mpirun $*"
