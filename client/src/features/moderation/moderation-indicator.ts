/**
 * The moderated indicator, out of the tenant stylesheet's reach (docs/security.md, "Tenant stylesheets").
 * An instance admin writes the instance's CSS and is also its moderator, so no stylesheet may hide that a
 * chat is watched:
 *
 * - the indicator is a host element directly in <body>, outside the app's tree, so no app element is its
 *   ancestor; its look lives in a closed shadow root that no outside selector reaches;
 * - the host's own style is inline, every declaration !important, starting with `all: initial`: an inline
 *   important declaration beats every stylesheet declaration, and `all` also resets what it would inherit
 *   (font size, colour, visibility, letter spacing…) from <body>;
 * - it is shown in the browser's top layer (a manual popover), drawn above everything else in the page, so no
 *   z-index, overlay, pseudo-element, filter, clip, transform or opacity of an ancestor reaches it;
 * - the zoom <body> would pass on is cancelled, and the host's own ::before/::after are switched off from
 *   inside the shadow root (important declarations from a shadow root beat those from the page);
 * - it is placed once a frame where its slot in the chat header is, kept inside the viewport: a stylesheet
 *   can move the slot, not push the indicator off screen.
 */

const Z_TOP = 2147483647;

const SHADOW_CSS = `
:host::before, :host::after { content: none !important; display: none !important; }
.badge {
  display: inline-flex; align-items: center; gap: 4px; box-sizing: border-box; height: 20px; padding: 0 8px;
  border: 1px solid #ffc078; border-radius: 10px; background: #fff4e6; color: #d9480f;
  box-shadow: 0 1px 2px rgba(0, 0, 0, 0.12);
  font: 700 11px/1 system-ui, sans-serif; letter-spacing: 0.25px; text-transform: uppercase; white-space: nowrap;
}
.badge svg { flex: none; display: block; }
`;

interface Placement {
  left: number;
  top: number;
  zoom: number;
}

const hostStyle = ({ left, top, zoom }: Placement): string =>
  [
    // Every property back to its initial value first, whatever a stylesheet or <body> says; then only what it needs.
    'all: initial',
    'display: flex',
    'position: fixed',
    `left: ${left}px`,
    `top: ${top}px`,
    'right: auto',
    'bottom: auto',
    'margin: 0',
    'padding: 0',
    'border: 0',
    'width: max-content',
    'height: max-content',
    'overflow: visible',
    `zoom: ${zoom}`,
    `z-index: ${Z_TOP}`,
    'pointer-events: auto',
    'cursor: default',
  ]
    .map((declaration) => `${declaration} !important`)
    .join('; ');

const clamp = (value: number, min: number, max: number) => Math.max(min, Math.min(value, max));

export interface ModerationIndicator {
  /** where the badge's own markup goes (a node inside the closed shadow root) */
  content: HTMLElement;
  label: (name: string, hint: string) => void;
  destroy: () => void;
}

/** Shows the indicator beside `slot` until destroy(); the slot is given the indicator's size. */
export function mountModerationIndicator(slot: HTMLElement): ModerationIndicator {
  const host = document.createElement('div');
  host.dataset.testid = 'chat-moderated-badge';
  host.setAttribute('role', 'status');
  const shadow = host.attachShadow({ mode: 'closed' });
  const style = document.createElement('style');
  style.textContent = SHADOW_CSS;
  const content = document.createElement('span');
  content.className = 'badge';
  shadow.append(style, content);

  let placed = '';
  const place = () => {
    const parentZoom = (document.body as HTMLElement & { currentCSSZoom?: number }).currentCSSZoom || 1;
    const box = host.getBoundingClientRect();
    const at = slot.getBoundingClientRect();
    const placement = {
      left: Math.round(clamp(at.left, 0, window.innerWidth - box.width)),
      top: Math.round(clamp(at.top + (at.height - box.height) / 2, 0, window.innerHeight - box.height)),
      zoom: 1 / parentZoom,
    };
    const css = hostStyle(placement);
    if (css !== placed) host.style.cssText = placed = css;
    const size = `${Math.ceil(box.width)}px`;
    if (slot.style.width !== size) slot.style.width = size;
    if (host.popover && !host.matches(':popover-open')) host.showPopover();
  };

  slot.style.cssText = 'display: inline-block; flex: none; height: 20px; vertical-align: middle';
  host.style.cssText = hostStyle({ left: 0, top: 0, zoom: 1 });
  document.body.appendChild(host);
  if (typeof host.showPopover === 'function') host.popover = 'manual';
  let frame = 0;
  const loop = () => {
    place();
    frame = requestAnimationFrame(loop);
  };
  loop();

  return {
    content,
    label(name, hint) {
      host.setAttribute('aria-label', name);
      host.title = hint;
    },
    destroy() {
      cancelAnimationFrame(frame);
      host.remove();
    },
  };
}
