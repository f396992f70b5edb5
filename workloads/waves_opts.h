/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * waves_opts.h - the option rows every recurring-demand program shares (waves.h reads them):
 * put WAVES_OPTION_ROWS in a wl_option table, after a `wave_arrivals` choice list made with
 * WAVES_ARRIVALS. One place for the words, so --help, the config keys and the docs agree.
 */
#ifndef CB_WAVES_OPTS_H
#define CB_WAVES_OPTS_H

#define WAVES_ARRIVALS static const char *const wave_arrivals[] = { "periodic", "poisson", NULL }

#define WAVES_OPTION_ROWS(what)                                                              \
	{ .name = "waves", .type = WL_OPT_INT, .def = "0", .min = 0, .max = 100000,             \
	  .help = "recurring demand: " what " in each of this many waves, one after the other " \
		  "(0: no waves, one run)" },                                                   \
	{ .name = "arrival", .type = WL_OPT_ENUM, .def = "periodic", .choices = wave_arrivals, \
	  .help = "how waves arrive: periodic (every --period) or poisson (exponential gaps "   \
		  "of mean --period, drawn from --seed)" },                                     \
	{ .name = "period", .type = WL_OPT_DURATION, .def = "5s",                               \
	  .help = "the period of the waves, or their mean gap (poisson)" },                     \
	{ .name = "seed", .type = WL_OPT_INT, .def = "1", .min = 0, .max = 4294967295.0,       \
	  .help = "seed of the poisson arrivals (same seed, same gaps)" }

/* the part of --help both programs give on arrivals */
#define WAVES_ARRIVAL_HELP                                                                   \
	"Wave 0 arrives at once, wave i a gap after wave i-1: --period, or for poisson\n"      \
	"gsl_ran_exponential(mean --period) on gsl_rng_mt19937 seeded with --seed, in seconds\n" \
	"rounded to the ns. A wave starts at its arrival or when the one before ended (late_ns\n" \
	"later): waves never overlap. start_ns/end_ns are CLOCK_MONOTONIC (the trace's \"mono\"\n" \
	"clock). --duration bounds all waves; a wave it cuts short says \"complete\":false.\n"

#endif
