// MathJax 3 configuration for the course site (loaded before the local MathJax copy).
// MyST turns the notebooks' $...$ into math elements; what it leaves as raw HTML (the exercise
// hints in <details> blocks, HTML tables in outputs) still holds $...$, typeset here too.
window.MathJax = {
  tex: {
    inlineMath: [["\\(", "\\)"], ["$", "$"]],
    displayMath: [["\\[", "\\]"], ["$$", "$$"]],
    processEscapes: true,
  },
  svg: { fontCache: "global" },
  options: {
    ignoreHtmlClass: "tex2jax_ignore|mathjax_ignore",
    processHtmlClass: "tex2jax_process|mathjax_process|math|output_area",
  },
  startup: {
    pageReady() {
      document.querySelectorAll("details").forEach((d) => d.classList.add("mathjax_process"));
      return MathJax.startup.defaultPageReady();
    },
  },
};
