/* unrecordable.c: MPI calls whose communication a trace cannot hold (docs/recording.md, "What is
 * recorded"), for measure_unrecorded_test. 2 ranks.
 *   --freed-receive  rank 1 posts MPI_Irecv and frees the request while it is in progress; rank 0
 *                    sends to it. The recorder warns; the trace has a send without a receive.
 *   --connect        rank 0 opens a port and MPI_Comm_accept's on MPI_COMM_SELF, rank 1
 *                    MPI_Comm_connect's to it; then a message over the new communicator. The
 *                    recorder warns and leaves the message out; the trace stays analyzable.
 *   --thread         MPI_THREAD_MULTIPLE; rank 0 sends from a second thread, rank 1 receives. Only
 *                    the thread that called MPI_Init is recorded: the recorder warns; the trace has
 *                    a receive without a send. */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static void *send_from_thread(void *arg)
{
    MPI_Send(arg, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    return NULL;
}

/* Rank 0 accepts on `port`, rank 1 connects; one message over the new communicator. */
static void message_over_port(int rank, char *port)
{
    MPI_Comm other;
    int value = 0;
    if (rank == 0) {
        MPI_Comm_accept(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &other);
        value = 7;
        MPI_Send(&value, 1, MPI_INT, 0, 1, other);
        MPI_Close_port(port);
    } else {
        MPI_Comm_connect(port, MPI_INFO_NULL, 0, MPI_COMM_SELF, &other);
        MPI_Recv(&value, 1, MPI_INT, 0, 1, other, MPI_STATUS_IGNORE);
        if (value != 7) {
            fprintf(stderr, "unrecordable: wrong message over the connected communicator\n");
            MPI_Abort(MPI_COMM_WORLD, 1);
        }
    }
    MPI_Comm_disconnect(&other);
}

int main(int argc, char **argv)
{
    const int freed = argc > 1 && strcmp(argv[1], "--freed-receive") == 0;
    const int connect = argc > 1 && strcmp(argv[1], "--connect") == 0;
    const int thread = argc > 1 && strcmp(argv[1], "--thread") == 0;
    int provided = MPI_THREAD_SINGLE;
    MPI_Init_thread(&argc, &argv, thread ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
    int rank = 0, value = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (thread && provided < MPI_THREAD_MULTIPLE) {
        fprintf(stderr, "unrecordable: MPI_THREAD_MULTIPLE is not provided\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    if (thread) {
        if (rank == 0) {
            pthread_t other;
            value = 5;
            pthread_create(&other, NULL, send_from_thread, &value);
            pthread_join(other, NULL);
        } else {
            MPI_Recv(&value, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
    } else if (freed) {
        if (rank == 1) {
            MPI_Request request;
            MPI_Irecv(&value, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &request);
            MPI_Request_free(&request);
        } else {
            value = 42;
            MPI_Send(&value, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
        }
        MPI_Barrier(MPI_COMM_WORLD); /* the freed receive has its message before value goes */
    } else if (connect) {
        char port[MPI_MAX_PORT_NAME] = "";
        if (rank == 0) {
            /* Not every MPI opens ports (MPICH's ch4:ucx does not): an empty name tells rank 1. */
            MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
            MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
            if (MPI_Open_port(MPI_INFO_NULL, port) != MPI_SUCCESS)
                port[0] = '\0';
            MPI_Send(port, MPI_MAX_PORT_NAME, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
        } else {
            MPI_Recv(port, MPI_MAX_PORT_NAME, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        if (port[0] != '\0')
            message_over_port(rank, port);
        else if (rank == 0)
            fprintf(stderr, "unrecordable: this MPI cannot open a port\n");
    }
    MPI_Finalize();
    return 0;
}
