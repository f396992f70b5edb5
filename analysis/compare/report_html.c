// SPDX-License-Identifier: GPL-2.0-only
/*
 * report_html.c - report.html, the page a reviewer reads: the verdict first, then the
 * tables, then the charts (inline SVG), a table of contents per kernel and workload, the
 * same page for one run and for an A/B of two or more runs. Its text is the runs' own
 * report.md (the analyzer writes the verdict and the tables there, report.c): each section
 * is rendered by cmark-gfm with its table extension, so the numbers and the verdict's words
 * are the analyzer's, never derived a second time here. Fits 1280 px without sideways
 * scrolling: the charts scale to the column, the tables wrap their headings.
 */
#include "plot.h"
#include "xalloc.h"
#include "util.h"

#include <cmark-gfm-core-extensions.h>
#include <cmark-gfm.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char style[] =
	"body{font-family:'DejaVu Sans',Arial,sans-serif;max-width:1240px;margin:0 auto;"
	"padding:0 16px;color:#222;line-height:1.4}\n"
	"table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}\n"
	"th,td{border:1px solid #ccc;padding:2px 6px;overflow-wrap:anywhere}\n"
	"th{background:#f2f2f2}tr:nth-child(even) td{background:#fafafa}\n"
	"td[align=right]{font-variant-numeric:tabular-nums}\n"
	"figure{margin:24px 0}figure svg{width:100%;height:auto;display:block}\n"
	"figcaption{font-size:14px;color:#444}code{font-size:90%}\n"
	"nav{background:#f6f6f6;padding:8px 16px;font-size:14px}nav ul{margin:4px 0}\n"
	".swatch{display:inline-block;width:12px;height:12px;margin:0 4px 0 12px}\n"
	"pre{white-space:pre-wrap}\n";

/* the section "## @name" of @md (its body, to the next "## "), malloc'ed; NULL if none */
static char *md_section(const char *md, const char *name)
{
	char head[128];
	const char *p, *end;

	snprintf(head, sizeof(head), "\n## %s\n", name);
	p = md ? strstr(md, head) : NULL;
	if (!p)
		return NULL;
	p += strlen(head);
	end = strstr(p, "\n## ");
	return strndup(p, end ? (size_t)(end - p + 1) : strlen(p));
}

/* the text before the first "## " (title and run line), without the "# " title */
static char *md_preamble(const char *md)
{
	const char *p = md, *end;

	if (!md)
		return NULL;
	if (!strncmp(p, "# ", 2))
		p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p);
	end = strstr(p, "\n## ");
	return strndup(p, end ? (size_t)(end - p + 1) : strlen(p));
}

/* an id from @run and @text: letters, digits and '-' */
static void anchor(char *buf, size_t size, int run, const char *a, const char *b)
{
	size_t n = (size_t)snprintf(buf, size, "r%d-%s-%s", run, a, b);

	for (size_t i = 0; i < n && i < size; i++)
		if (buf[i] && !isalnum((unsigned char)buf[i]))
			buf[i] = '-';
}

/*
 * the results' markdown with an anchor before each "### kernel `K`, workload `W`" heading,
 * so the table of contents can link to each table
 */
static char *anchored(const char *md, int run)
{
	char *buf = NULL, *line = NULL, id[300];
	size_t len = 0, cap = 0;
	FILE *f = open_memstream(&buf, &len), *in = fmemopen((void *)md, strlen(md), "r");

	if (!f || !in)
		cb_oom();
	while (getline(&line, &cap, in) > 0) {
		char k[128], w[128];

		if (sscanf(line, "### kernel `%127[^`]`, workload `%127[^`]`", k, w) == 2) {
			anchor(id, sizeof(id), run, k, w);
			fprintf(f, "<a id=\"%s\"></a>\n\n", id);
		}
		fputs(line, f);
	}
	free(line);
	fclose(in);
	fclose(f);
	return buf;
}

/* @md rendered as HTML (GitHub's markdown: tables) into @f */
static void render(FILE *f, const char *md)
{
	cmark_parser *p;
	cmark_node *doc;
	char *html;

	if (!md)
		return;
	cmark_gfm_core_extensions_ensure_registered();
	p = cmark_parser_new(CMARK_OPT_UNSAFE);
	cmark_parser_attach_syntax_extension(p, cmark_find_syntax_extension("table"));
	cmark_parser_feed(p, md, strlen(md));
	doc = cmark_parser_finish(p);
	html = cmark_render_html(doc, CMARK_OPT_UNSAFE, cmark_parser_get_syntax_extensions(p));
	fputs(html, f);
	free(html);
	cmark_node_free(doc);
	cmark_parser_free(p);
}

static void escape(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
}

/* whether the matrix ran workload @w on kernel @k in any setting (it has a table) */
static bool ran(const struct pl_ctx *c, int w, int k)
{
	for (int s = 0; s < c->ns; s++)
		if (c->grid[w][k][s])
			return true;
	return false;
}

/* the table of contents: per kernel and workload it ran, its table and its timelines */
static void toc(FILE *f, const struct pl_ctx *c, const struct pl_chart *ch, int n)
{
	char id[300];

	fprintf(f, "<nav><b>Contents</b><ul><li><a href=\"#verdict\">Verdict</a></li>\n"
		   "<li><a href=\"#results\">Tables</a> and timelines by kernel and workload:<ul>\n");
	for (int k = 0; k < c->nk; k++) {
		fputs("<li>kernel <code>", f);
		escape(f, c->kernel[k]);
		fputs("</code>:<ul>", f);
		for (int w = 0; w < c->nw; w++) {
			bool first = true;

			if (!ran(c, w, k))
				continue; /* e.g. a workload of one kernel only: no table to link */
			anchor(id, sizeof(id), c->krun[k], c->kname[k], c->workload[w]);
			fprintf(f, "<li><a href=\"#%s\">", id);
			escape(f, c->workload[w]);
			fputs("</a>", f);
			for (int j = 0; j < n; j++) {
				if (ch[j].w != w || ch[j].k != k)
					continue;
				fprintf(f, "%s<a href=\"#%s\">", first ? ", timelines: " : " · ",
					ch[j].anchor);
				escape(f, c->setting[ch[j].s]);
				fputs("</a>", f);
				first = false;
			}
			fputs("</li>", f);
		}
		fputs("</ul></li>\n", f);
	}
	fprintf(f, "</ul></li>\n<li><a href=\"#charts\">Charts</a>:");
	for (int j = 0; j < n; j++)
		if (ch[j].w < 0)
			fprintf(f, " <a href=\"#%s\">%s</a>", ch[j].anchor, ch[j].file);
	fprintf(f, "</li></ul></nav>\n");
}

/* the settings' colours, as in every chart */
static void legend(FILE *f, const struct pl_ctx *c)
{
	fputs("<p class=\"legend\">Settings in every chart:", f);
	for (int s = 0; s < c->ns; s++) {
		fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span><span "
			   "class=\"setting\" data-color=\"%s\">", pl_palette[s % pl_npalette],
			pl_palette[s % pl_npalette]);
		escape(f, c->setting[s]);
		fputs("</span>", f);
	}
	fputs("</p>\n", f);
}

/* one chart as a figure with the SVG inline */
static void figure(FILE *f, const struct pl_ctx *c, const struct pl_chart *ch)
{
	char path[PATH_MAX], *svg, *p;

	fprintf(f, "<figure id=\"%s\" data-chart=\"%s\">\n", ch->anchor, ch->file);
	if (cb_path(path, sizeof(path), "%s/%s.svg", c->dir, ch->file) == 0 &&
	    (svg = cb_read_file(path, NULL))) {
		/* the SVG's own XML declaration and doctype have no place inside HTML */
		p = strstr(svg, "<svg");
		fputs(p ? p : "", f);
		free(svg);
	}
	fputs("<figcaption>", f);
	escape(f, ch->title);
	fprintf(f, " (<a href=\"charts/%s.png\">PNG</a>, numbers in <code>charts/%s.dat</code>)"
		   "</figcaption></figure>\n", ch->file, ch->file);
}

/* the runs' sections named @name, each under its run's heading when there are several */
static void sections(FILE *f, const struct pl_ctx *c, char **md, const char *name, bool anchors)
{
	for (int r = 0; r < c->nr; r++) {
		char *sec = md_section(md[r], name), *a;

		if (!sec)
			continue;
		if (c->nr > 1) {
			fprintf(f, "<h3>run <code>");
			escape(f, c->runs[r].dir);
			fprintf(f, "</code></h3>\n");
		}
		a = anchors ? anchored(sec, r) : sec;
		render(f, a);
		if (a != sec)
			free(a);
		free(sec);
	}
}

/* the sections of report.md this page has no place for above, under their own headings */
static void other_sections(FILE *f, const struct pl_ctx *c, char **md)
{
	static const char *const placed[] = { "Verdict", "Results", "Cells pending",
					      "Cells left out", "Charts" };
	const char *p;

	for (p = md[0] ? strstr(md[0], "\n## ") : NULL; p; p = strstr(p + 1, "\n## ")) {
		char name[128];
		size_t i;

		if (sscanf(p + 4, "%127[^\n]", name) != 1)
			continue;
		for (i = 0; i < CB_ARRAY_SIZE(placed) && strcmp(placed[i], name); i++)
			;
		if (i < CB_ARRAY_SIZE(placed))
			continue;
		fputs("<h2>", f);
		escape(f, name);
		fputs("</h2>\n", f);
		sections(f, c, md, name, false);
	}
}

int pl_report_html(const struct pl_ctx *c, const struct pl_chart *ch, int n)
{
	char path[PATH_MAX], *md[PL_MAX] = { NULL }, *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -1;
	for (int r = 0; r < c->nr && r < PL_MAX; r++)
		if (cb_path(path, sizeof(path), "%s/report.md", c->runs[r].dir) == 0)
			md[r] = cb_read_file(path, NULL);
	fprintf(f, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<meta name="
		   "\"viewport\" content=\"width=device-width\">\n<title>compactbench report</title>"
		   "\n<style>\n%s</style></head>\n<body>\n<h1>compactbench report</h1>\n", style);
	for (int r = 0; r < c->nr; r++) {
		char *pre = md_preamble(md[r]);

		if (c->nr > 1) {
			fprintf(f, "<p>%s <code>", r ? "Against" : "Run");
			escape(f, c->runs[r].dir);
			fputs("</code>:</p>\n", f);
		}
		render(f, pre);
		free(pre);
	}
	toc(f, c, ch, n);
	fputs("<h2 id=\"verdict\">Verdict</h2>\n", f);
	sections(f, c, md, "Verdict", false);
	fputs("<h2 id=\"results\">Tables</h2>\n", f);
	sections(f, c, md, "Results", true);
	sections(f, c, md, "Cells pending", false);
	fputs("<h2 id=\"left-out\">Cells left out</h2>\n", f);
	sections(f, c, md, "Cells left out", false);
	other_sections(f, c, md);
	fputs("<h2 id=\"charts\">Charts</h2>\n", f);
	legend(f, c);
	for (int j = 0; j < n; j++) {
		if (ch[j].w >= 0 && (j == 0 || ch[j - 1].w < 0))
			fputs("<h2 id=\"timelines\">Timelines: the median cell of each group</h2>\n", f);
		figure(f, c, &ch[j]);
	}
	fputs("</body></html>\n", f);
	for (int r = 0; r < c->nr && r < PL_MAX; r++)
		free(md[r]);
	if (fclose(f))
		return -1;
	if (cb_path(path, sizeof(path), "%s/report.html", c->runs[0].dir) < 0)
		ret = -1;
	else
		ret = cb_write_file_atomic(path, buf, len);
	free(buf);
	return ret;
}
