//===- Startup.h - Starting a program with or without mpirun ----*- C++ -*-===//
//
// A program planned for one node may be run directly (`./prog`): MPI then
// starts as a singleton. Open MPI 4.1's defaults make that start slow: it
// forks a supporting daemon and probes every point-to-point layer, the
// psm/psm2/ofi transports of the `cm` layer among them, which took 0.29 s of
// a 0.31 s MPI_Init_thread on the development VM (docs/runtime.md,
// "Starting"). A singleton talks to no other process, so neither is needed.
//
//===----------------------------------------------------------------------===//

#ifndef CMMRT_STARTUP_H
#define CMMRT_STARTUP_H

namespace cmmrt {

/// True when a launcher started this process: mpirun (OMPI_COMM_WORLD_SIZE),
/// or a PMIx or PMI server such as srun's (PMIX_RANK, PMI_RANK, PMI_SIZE).
bool startedByLauncher();

/// Called before MPI_Init by a process no launcher started: the Open MPI
/// settings of a quick singleton start (no daemon, the `ob1` layer), each
/// only where the user's environment does not set it.
void prepareSingletonStart();

} // namespace cmmrt

#endif // CMMRT_STARTUP_H
