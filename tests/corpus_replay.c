// SPDX-License-Identifier: GPL-2.0 OR MIT
/*
 * A main() for a libFuzzer target without libFuzzer: feeds it each file
 * named on the command line once, as the fuzzer's own replay of a corpus
 * does. Built with gcc --coverage (make -C tests coverage), so that the
 * corpus counts in the engine's coverage.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional in a target, as in libFuzzer. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

/* A custom mutator's call into libFuzzer: replay never mutates. */
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size)
{
	return size;
}

int main(int argc, char **argv)
{
	int i, n = 0;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);

	for (i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "rb");
		uint8_t *buf;
		long size;

		if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 ||
		    fseek(f, 0, SEEK_SET)) {
			perror(argv[i]);
			return 1;
		}
		buf = malloc(size ? size : 1);
		if (!buf || fread(buf, 1, size, f) != (size_t)size) {
			perror(argv[i]);
			return 1;
		}
		fclose(f);
		LLVMFuzzerTestOneInput(buf, size);
		free(buf);
		n++;
	}
	printf("# replayed %d inputs\n", n);
	return 0;
}
