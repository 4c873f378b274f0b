/* waitscope.h: manual regions for libwaitscope-measure.
 *
 *   #include <waitscope.h>
 *   waitscope_region_begin("solver");
 *   ...
 *   waitscope_region_end("solver");
 *
 * Regions must nest properly; the name identifies the region (user paradigm). Without the library
 * linked or preloaded, link with -lwaitscope-measure or define WAITSCOPE_DISABLE to compile the calls away. */
#ifndef WAITSCOPE_H
#define WAITSCOPE_H

#ifdef __cplusplus
extern "C" {
#endif

#ifdef WAITSCOPE_DISABLE
#define waitscope_region_begin(name) ((void)0)
#define waitscope_region_end(name) ((void)0)
#else
void waitscope_region_begin(const char* name);
void waitscope_region_end(const char* name);
#endif

#ifdef __cplusplus
}
#endif

#endif
