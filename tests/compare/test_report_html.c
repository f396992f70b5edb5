// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_report_html.c - report.html as a browser lays it out: headless Chromium (Debian's
 * `chromium`) loads the page of a synthetic 3 kernels x 4 settings x 4 workloads run
 * (plot_fixture.h) with a script appended that measures every SVG text element of every
 * chart (getBoundingClientRect) and writes what it found into the DOM, which --dump-dom
 * prints. Fails if two text elements of a chart overlap, if text falls outside its chart,
 * if the page scrolls sideways at 1280 px, if the verdict is not the first section or if
 * the tables are not HTML tables. Exit 77 (skipped) only where chromium is not installed.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "compare.h"
#include "plot_fixture.h"
#include "util.h"

/*
 * a control chart the script must catch: two texts on each other, one past the right edge
 * (so a script that finds nothing fails the test instead of passing it)
 */
static const char control[] =
	"<figure id=\"control\"><svg viewBox=\"0 0 200 50\" width=\"200\" height=\"50\">"
	"<text x=\"10\" y=\"20\">AAAA</text><text x=\"14\" y=\"22\">BBBB</text>"
	"<text x=\"190\" y=\"40\">outside</text></svg></figure>\n";

static const char check_js[] =
	"<script>\n(function(){\n"
	"var out=[],ov=0,outside=0;\n"
	"document.querySelectorAll('figure svg').forEach(function(svg){\n"
	" var fig=svg.closest('figure').id, sb=svg.getBoundingClientRect();\n"
	" var ts=[].slice.call(svg.querySelectorAll('text')).map(function(t){\n"
	"  return {t:t.textContent.trim(),r:t.getBoundingClientRect()};})\n"
	"  .filter(function(x){return x.t.length&&x.r.width>0&&x.r.height>0;});\n"
	" ts.forEach(function(a){if(a.r.left<sb.left-1||a.r.right>sb.right+1||\n"
	"  a.r.top<sb.top-1||a.r.bottom>sb.bottom+1){outside++;out.push('OUTSIDE '+fig+' '+a.t);}});\n"
	" for(var i=0;i<ts.length;i++)for(var j=i+1;j<ts.length;j++){var a=ts[i].r,b=ts[j].r;\n"
	"  var w=Math.min(a.right,b.right)-Math.max(a.left,b.left),\n"
	"      h=Math.min(a.bottom,b.bottom)-Math.max(a.top,b.top);\n"
	"  if(w>1&&h>1){ov++;out.push('OVERLAP '+fig+' \"'+ts[i].t+'\" \"'+ts[j].t+'\"');}}\n"
	"});\n"
	"var h2=document.querySelector('h2'),figs=document.querySelectorAll('figure svg').length;\n"
	"var tt=0,dl=0;document.querySelectorAll('nav a[href^=\"#\"]').forEach(function(a){\n"
	" var id=a.getAttribute('href').slice(1);if(/^r[0-9]+-/.test(id))tt++;\n"
	" if(!document.getElementById(id)){dl++;out.push('DANGLING '+id);}});\n"
	"var p=document.createElement('pre');p.id='cbcheck';\n"
	"p.textContent='CBCHECK overlaps='+ov+' outside='+outside+' scrollx='+\n"
	" (document.documentElement.scrollWidth>window.innerWidth?1:0)+' first='+(h2?h2.id:'')+\n"
	" ' tables='+document.querySelectorAll('table').length+' charts='+figs+\n"
	" ' toc_tables='+tt+' dangling='+dl+' END\\n'+out.join('\\n');\n"
	"document.body.appendChild(p);})();\n</script>\n";

static const char *chromium(void)
{
	static const char *const names[] = { "/usr/bin/chromium", "/usr/bin/chromium-browser" };

	for (size_t i = 0; i < CB_ARRAY_SIZE(names); i++)
		if (access(names[i], X_OK) == 0)
			return names[i];
	return NULL;
}

/* run chromium on @page, its DOM into @dom; returns 0 */
static int dump_dom(const char *exe, const char *page, const char *dom)
{
	char url[1200];
	pid_t pid;
	int st, fd;

	snprintf(url, sizeof(url), "file://%s", page);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		fd = open(dom, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(126);
		fd = open("/dev/null", O_WRONLY);
		dup2(fd, 2);
		/* root has no sandbox; no GPU here; the page's own size: 1280 px wide */
		execl(exe, exe, "--headless", "--no-sandbox", "--disable-gpu",
		      "--window-size=1280,900", "--virtual-time-budget=5000", "--dump-dom", url,
		      (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return -1;
	return 0;
}

/*
 * plot @nruns copies of the synthetic run (one run, or an A/B of two) and check the page
 * of the first; returns 0 when it passes
 */
static int check_page(const char *tmp, const char *exe, const char *fx, int nruns)
{
	char run[2][200], path[300], page[300], dom[300], first[64] = "";
	char *argv[] = { "plot", run[0], run[1], NULL }, *html, *out, *res, *end;
	int ov = -1, outside = -1, scrollx = -1, tables = -1, charts = -1, toc_tables = -1,
	    dangling = -1, fail = 0;
	FILE *f;

	for (int r = 0; r < nruns; r++) {
		snprintf(run[r], sizeof(run[r]), "%s/run%d-%c", tmp, nruns, 'a' + r);
		if (cb_mkdir_p(run[r]) < 0 || fx_make_run(run[r], fx) < 0 ||
		    fx_write_report_md(run[r]) < 0)
			return 1;
	}
	if (fx_quiet(cmd_plot, 1 + nruns, argv, NULL)) {
		fprintf(stderr, "plot failed\n");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/report.html", run[0]);
	html = cb_read_file(path, NULL);
	if (!html || !(end = strstr(html, "</body>")))
		return 1;
	/* the page with the measuring script before </body> */
	snprintf(page, sizeof(page), "%s/check.html", run[0]);
	f = fopen(page, "w");
	fwrite(html, 1, (size_t)(end - html), f);
	fputs(control, f);
	fputs(check_js, f);
	fputs(end, f);
	fclose(f);
	snprintf(dom, sizeof(dom), "%s/dom%d.html", tmp, nruns);
	if (dump_dom(exe, page, dom) < 0) {
		fprintf(stderr, "chromium failed on %s\n", page);
		return 1;
	}
	out = cb_read_file(dom, NULL);
	res = out ? strstr(out, "<pre id=\"cbcheck\">") : NULL;
	res = res ? strstr(res, "CBCHECK ") : NULL;
	if (!res || sscanf(res, "CBCHECK overlaps=%d outside=%d scrollx=%d first=%63s tables=%d "
			   "charts=%d toc_tables=%d dangling=%d", &ov, &outside, &scrollx, first,
			   &tables, &charts, &toc_tables, &dangling) != 8) {
		fprintf(stderr, "no result from the page's script in %s\n", dom);
		return 1;
	}
	end = strstr(res, "</pre>");
	if (end)
		*end = '\0';
	printf("%d run(s): %s\n", nruns, res);
	/*
	 * every text of every chart apart and inside but the control's one overlap and one
	 * text outside; no sideways scrolling at 1280 px
	 */
	fail |= ov != 1 || outside != 1 || scrollx != 0 || !strstr(res, "OVERLAP control") ||
		!strstr(res, "OUTSIDE control");
	/*
	 * the verdict first; 11 HTML tables (3 kernels x 4 workloads, one not run) per run; the
	 * control, the 8 summary charts and a timeline for each of the 43 groups with values
	 * per run; the contents link to every table and every link lands (none to a kernel and
	 * workload that did not run)
	 */
	fail |= strcmp(first, "verdict") != 0 || tables != nruns * (FX_NK * FX_NW - 1) ||
		charts != 1 + 8 + nruns * (FX_NK * FX_NS * FX_NW - 1 - FX_NS) ||
		toc_tables != tables || dangling != 0;
	free(html);
	free(out);
	return fail;
}

int main(void)
{
	char tmp[] = "/tmp/cb-test-html-XXXXXX";
	const char *exe = chromium(), *fx = getenv("FIXTURES");
	int fail;

	if (!exe) {
		printf("SKIP: chromium is not installed (run.sh installs it)\n");
		return 77;
	}
	if (!fx || !mkdtemp(tmp))
		return 1;
	/* one run, and an A/B of two: the same page (the A/B's kernel labels abbreviated) */
	fail = check_page(tmp, exe, fx, 1);
	fail |= check_page(tmp, exe, fx, 2);
	if (fail)
		fprintf(stderr, "FAIL: pages kept in %s\n", tmp);
	else
		cb_rm_rf(tmp);
	return fail;
}
