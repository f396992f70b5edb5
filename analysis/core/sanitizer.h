/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sanitizer.h - CB_ASAN is defined in an AddressSanitizer build (gcc or clang), where the
 * forked children that may crash on a hostile trace (stalls_child.c, tracecheck_trial.c)
 * replace the sanitizer's death callback: one slot, which libFuzzer also uses to save the
 * input as a crash of the whole process.
 */
#ifndef CB_SANITIZER_H
#define CB_SANITIZER_H

#if defined(__SANITIZE_ADDRESS__)
#define CB_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define CB_ASAN 1
#endif
#endif

#ifdef CB_ASAN
void __sanitizer_set_death_callback(void (*callback)(void));
#endif

#endif
