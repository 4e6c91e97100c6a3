/* count_bytes.c - a PMPI interposition library counting the payload bytes
 * each rank sends to other ranks, collectives included, so that cmm's
 * COSMA and ScaLAPACK's pdgemm are measured the same way.
 *
 * Point-to-point sends count their payload (to a rank other than the
 * sender). Collectives count what the caller logically sends to the other
 * ranks: a broadcast root its buffer to each of the n - 1 others, an
 * allgather(v) member its contribution to each of the n - 1 others, a
 * reduce non-root its buffer, a reduce-scatter member the parts the
 * others keep, an allreduce member its buffer to n - 1
 * others, an alltoall(v) member what it addresses to the others.
 *
 * Build: mpicc -shared -fPIC -O2 count_bytes.c -o libcount_bytes.so
 * Use:   CMM_PMPI_OUT=counts.txt LD_PRELOAD=$PWD/libcount_bytes.so mpirun ...
 * At MPI_Finalize each rank appends "rank <r> sent <bytes> bytes" to the
 * file (or to stderr without CMM_PMPI_OUT).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long long sentBytes = 0;

static long long bytesOf(int count, MPI_Datatype type) {
  int size = 0;
  PMPI_Type_size(type, &size);
  return (long long)count * size;
}

static int others(MPI_Comm comm) {
  int n = 1;
  PMPI_Comm_size(comm, &n);
  return n - 1;
}

static int isSelf(int dest, MPI_Comm comm) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  return dest == me || dest == MPI_PROC_NULL;
}

int MPI_Send(const void *b, int c, MPI_Datatype t, int d, int tag,
             MPI_Comm comm) {
  if (!isSelf(d, comm))
    sentBytes += bytesOf(c, t);
  return PMPI_Send(b, c, t, d, tag, comm);
}

int MPI_Ssend(const void *b, int c, MPI_Datatype t, int d, int tag,
              MPI_Comm comm) {
  if (!isSelf(d, comm))
    sentBytes += bytesOf(c, t);
  return PMPI_Ssend(b, c, t, d, tag, comm);
}

int MPI_Isend(const void *b, int c, MPI_Datatype t, int d, int tag,
              MPI_Comm comm, MPI_Request *r) {
  if (!isSelf(d, comm))
    sentBytes += bytesOf(c, t);
  return PMPI_Isend(b, c, t, d, tag, comm, r);
}

int MPI_Sendrecv(const void *sb, int sc, MPI_Datatype st, int d, int stag,
                 void *rb, int rc, MPI_Datatype rt, int s, int rtag,
                 MPI_Comm comm, MPI_Status *status) {
  if (!isSelf(d, comm))
    sentBytes += bytesOf(sc, st);
  return PMPI_Sendrecv(sb, sc, st, d, stag, rb, rc, rt, s, rtag, comm,
                       status);
}

int MPI_Bcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm) {
  if (isSelf(root, comm))
    sentBytes += bytesOf(c, t) * others(comm);
  return PMPI_Bcast(b, c, t, root, comm);
}

int MPI_Ibcast(void *b, int c, MPI_Datatype t, int root, MPI_Comm comm,
               MPI_Request *r) {
  if (isSelf(root, comm))
    sentBytes += bytesOf(c, t) * others(comm);
  return PMPI_Ibcast(b, c, t, root, comm, r);
}

int MPI_Allgather(const void *sb, int sc, MPI_Datatype st, void *rb, int rc,
                  MPI_Datatype rt, MPI_Comm comm) {
  sentBytes += bytesOf(sb == MPI_IN_PLACE ? rc : sc,
                       sb == MPI_IN_PLACE ? rt : st) * others(comm);
  return PMPI_Allgather(sb, sc, st, rb, rc, rt, comm);
}

int MPI_Allgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                   const int *rc, const int *displs, MPI_Datatype rt,
                   MPI_Comm comm) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  sentBytes += bytesOf(sb == MPI_IN_PLACE ? rc[me] : sc,
                       sb == MPI_IN_PLACE ? rt : st) * others(comm);
  return PMPI_Allgatherv(sb, sc, st, rb, rc, displs, rt, comm);
}

int MPI_Iallgatherv(const void *sb, int sc, MPI_Datatype st, void *rb,
                    const int *rc, const int *displs, MPI_Datatype rt,
                    MPI_Comm comm, MPI_Request *r) {
  int me = 0;
  PMPI_Comm_rank(comm, &me);
  sentBytes += bytesOf(sb == MPI_IN_PLACE ? rc[me] : sc,
                       sb == MPI_IN_PLACE ? rt : st) * others(comm);
  return PMPI_Iallgatherv(sb, sc, st, rb, rc, displs, rt, comm, r);
}

int MPI_Reduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op,
               int root, MPI_Comm comm) {
  if (!isSelf(root, comm))
    sentBytes += bytesOf(c, t);
  return PMPI_Reduce(sb, rb, c, t, op, root, comm);
}

int MPI_Reduce_scatter(const void *sb, void *rb, const int *rc,
                       MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  /* What the other ranks keep of this rank's buffer. */
  int me = 0, n = 1;
  PMPI_Comm_rank(comm, &me);
  PMPI_Comm_size(comm, &n);
  for (int q = 0; q < n; ++q)
    if (q != me)
      sentBytes += bytesOf(rc[q], t);
  return PMPI_Reduce_scatter(sb, rb, rc, t, op, comm);
}

int MPI_Allreduce(const void *sb, void *rb, int c, MPI_Datatype t, MPI_Op op,
                  MPI_Comm comm) {
  sentBytes += bytesOf(c, t) * others(comm);
  return PMPI_Allreduce(sb, rb, c, t, op, comm);
}

int MPI_Alltoallv(const void *sb, const int *sc, const int *sd,
                  MPI_Datatype st, void *rb, const int *rc, const int *rd,
                  MPI_Datatype rt, MPI_Comm comm) {
  int me = 0, n = 1;
  PMPI_Comm_rank(comm, &me);
  PMPI_Comm_size(comm, &n);
  for (int q = 0; q < n; ++q)
    if (q != me)
      sentBytes += bytesOf(sc[q], st);
  return PMPI_Alltoallv(sb, sc, sd, st, rb, rc, rd, rt, comm);
}

int MPI_Finalize(void) {
  int me = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &me);
  const char *path = getenv("CMM_PMPI_OUT");
  FILE *f = path ? fopen(path, "a") : stderr;
  if (f) {
    fprintf(f, "rank %d sent %lld bytes\n", me, sentBytes);
    if (f != stderr)
      fclose(f);
  }
  return PMPI_Finalize();
}
