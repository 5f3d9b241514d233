// The lobby check of tests/web/test_layout.py: answers a list of problems.
() => {
    const out = [];
    const pick = document.querySelector('.hero-tools select');
    const r = pick.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!pick.contains(hit) && hit !== pick) out.push('the language switch is covered by ' + hit.className);
    for (const sel of document.querySelectorAll('.create-form select')) {
      const opt = sel.options[sel.selectedIndex];
      if (!opt) continue;
      const ctx = document.createElement('canvas').getContext('2d');
      const cs = getComputedStyle(sel);
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = sel.clientWidth - parseFloat(cs.paddingInlineStart) - parseFloat(cs.paddingInlineEnd) - 18;
      const need = ctx.measureText(opt.textContent).width;
      if (need > room + 1) out.push(`the select ${sel.id} cuts "${opt.textContent}" (${Math.round(need)} > ${Math.round(room)})`);
    }
    const join = document.querySelector('#join-code');
    if (/^[A-Z0-9]{6}$/.test(join.placeholder)) out.push('the join hint looks like a code: ' + join.placeholder);
    return out;
}
