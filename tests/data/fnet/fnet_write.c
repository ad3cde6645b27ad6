/* Writes the built-in face net as a weights file, or a worse one, for the
 * end-to-end test of [camera] face_net (tests/e2e/daemon_face_net.sh):
 *   build/tests/fnet_write OUT [SCALE [TURNS]]
 * SCALE multiplies every weight (1: the built-in net as it is; 0: a net
 * that reads every class alike), TURNS the quarter turns it says it is
 * read at (default the built-in net's). */
#include <stdio.h>
#include <stdlib.h>

#include "vision/vision.h"

int main(int argc, char **argv)
{
	const struct vis_fnet *b = vis_fnet_builtin();
	struct vis_fnet *net;
	char err[512];
	int rc;

	if (argc < 2 || argc > 4) {
		fprintf(stderr, "usage: fnet_write OUT [SCALE [TURNS]]\n");
		return 2;
	}
	net = vis_fnet_copy(b, argc > 3 ? atoi(argv[3]) : b->turns, argc > 2 ? atof(argv[2]) : 1);
	if (!net) {
		perror("fnet_write");
		return 1;
	}
	rc = vis_fnet_write(net, argv[1], err, sizeof(err));
	if (rc)
		fprintf(stderr, "fnet_write: %s\n", err);
	vis_fnet_free(net);
	return rc ? 1 : 0;
}
