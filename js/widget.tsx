/**
 * The anywidget entry point: `render({ model, el })` draws the board into
 * `el` and returns the cleanup that unmounts it.
 */
import { render as preactRender } from "preact";
import { App } from "./board/app";
import type { AnyModel } from "./types";

function render({ model, el }: { model: AnyModel; el: HTMLElement }): () => void {
  el.classList.add("lf-host");
  preactRender(<App model={model} />, el);
  return () => {
    preactRender(null, el);
    el.classList.remove("lf-host");
  };
}

export default { render };
