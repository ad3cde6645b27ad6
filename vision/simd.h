/* vision/ private (vision/vision.h is the module's one public header):
 * four floats in one vector register, for the inner loops of the face net
 * (face_net.c) and the located die's search (face_at.c). GCC's and
 * clang's vector extension: SSE on x86-64, NEON on the Pi's arm64, at
 * the project's plain -O2 (whose vectoriser leaves loops of unknown
 * length alone). Lane arithmetic is the scalar arithmetic, so results do
 * not change. */
#ifndef DYEREF_VISION_SIMD_H
#define DYEREF_VISION_SIMD_H

#include <stdint.h>
#include <string.h>

typedef float f4 __attribute__((vector_size(16)));
typedef int32_t i4 __attribute__((vector_size(16)));

static inline f4 load4(const float *p)
{
	f4 v;
	memcpy(&v, p, sizeof(v));	/* unaligned */
	return v;
}

static inline void store4(float *p, f4 v)
{
	memcpy(p, &v, sizeof(v));
}

/* Lane by lane, a where mask (a vector comparison's) is set, else b. */
static inline f4 pick(i4 mask, f4 a, f4 b)
{
	return (f4)(((i4)a & mask) | ((i4)b & ~mask));
}

#endif
