// No Python from markup (docs/site.md). The page loads PyScript's core for its PyWorker only, but
// the core also watches the whole document with one MutationObserver and starts Python for any
// <script type="py">, <py-script> or py-*/mpy-* attribute that appears. That observer is stopped
// before it starts: its one observe() of the document is held here and never made, and its later
// ones (a shadow root) do nothing.
{
  const proto = MutationObserver.prototype;
  const observe = proto.observe;
  proto.observe = function (target, options) {
    const whole = target === document && options && options.childList && options.subtree && options.attributes;
    if (whole && /\/vendor\/pyscript\//.test(new Error().stack || "")) {
      proto.observe = observe;  // once: every other observer of the page is left alone
      this.observe = () => {};
      return;
    }
    return observe.call(this, target, options);
  };
}
