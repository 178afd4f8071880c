// No True King's loyalty sealed in the player's own browser (docs/no-true-king.md 4.6): the
// card is drawn and the secret made here, the seal is the SHA-256 hex of
// "ntk-loyalty:<player>:<h1>,<h2>,<h3>,<h4>,<left>:<secret>", exactly as `cok ntk seal`
// makes it, and only the seal is sent. The secret stays in this browser (localStorage) and
// in the copy the player keeps, until `unseal` sends it after the last round.
"use strict";

(function () {
  const SECRET_BYTES = 24; // 192 random bits, as `cok ntk seal` makes them

  function hex(bytes) {
    return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function canSeal() {
    return Boolean(window.isSecureContext && window.crypto && window.crypto.subtle);
  }

  async function sealOf(player, card, secret) {
    const text = "ntk-loyalty:" + player + ":" + card.join(",") + ":" + secret;
    const digest = await window.crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
    return hex(digest);
  }

  function newSecret() {
    return hex(window.crypto.getRandomValues(new Uint8Array(SECRET_BYTES)));
  }

  // A uniform shuffle of the houses (Fisher-Yates, unbiased draws from getRandomValues).
  function drawCard(houses) {
    const card = houses.slice();
    for (let i = card.length - 1; i > 0; i--) {
      const limit = Math.floor(0x100000000 / (i + 1)) * (i + 1);
      let r;
      do {
        r = window.crypto.getRandomValues(new Uint32Array(1))[0];
      } while (r >= limit);
      const j = r % (i + 1);
      [card[i], card[j]] = [card[j], card[i]];
    }
    return card;
  }

  // What this browser keeps (issue 34): each card under its own seal, which belongs to one
  // conspiracy of one game (a seal is never another's, and its secret is random), so a card
  // is only ever used where the log holds its seal; a draw not yet joined is remembered under
  // the table's identity (the server's: its folder and its first event, never its name), so a
  // new game with the same name on the same address offers a new draw.
  function cardKey(seal) {
    return "cok-ntk-card:" + seal;
  }

  function drawKey(table, player) {
    return "cok-ntk-draw:" + table + ":" + player;
  }

  function legacyKey(campaign, player) {
    return "cok-ntk-loyalty:" + campaign + ":" + player; // older pages' key: used only if its seal matches
  }

  function read(name) {
    try {
      const found = JSON.parse(window.localStorage.getItem(name) || "null");
      return found && Array.isArray(found.loyalty) && typeof found.secret === "string" ? found : null;
    } catch (e) {
      return null;
    }
  }

  // The card kept for this seal (and for this player), or null: never another game's card.
  function kept(seal, player, campaign) {
    if (!seal) return null;
    for (const name of [cardKey(seal), legacyKey(campaign, player)]) {
      const found = read(name);
      if (found && found.seal === seal && found.player === player) return found;
    }
    return null;
  }

  function keep(record) {
    window.localStorage.setItem(cardKey(record.seal), JSON.stringify(record));
  }

  function forget(seal, player, campaign) {
    window.localStorage.removeItem(cardKey(seal));
    const old = read(legacyKey(campaign, player));
    if (old && old.seal === seal) window.localStorage.removeItem(legacyKey(campaign, player));
  }

  const POSITIONS = ["1", "2", "3", "4", "left"];

  function show(el, on) {
    if (el) el.hidden = !on;
  }

  function listCard(list, card) {
    list.replaceChildren();
    card.forEach((house, i) => {
      const item = document.createElement("li");
      const name = house.charAt(0).toUpperCase() + house.slice(1);
      item.textContent = (i < 4 ? "Position " + (i + 1) + ": " : "Left over: ") + name;
      list.append(item);
    });
  }

  function offerKeeping(root, record) {
    const text = JSON.stringify(record, null, 2);
    const box = root.querySelector("[data-kept-text]");
    if (box) box.value = text;
    const link = root.querySelector("[data-kept-file]");
    if (link) {
      link.href = URL.createObjectURL(new Blob([text + "\n"], { type: "application/json" }));
      link.download = "loyalty-" + record.player + ".json";
    }
    const copy = root.querySelector("[data-kept-copy]");
    if (copy) {
      copy.onclick = async () => {
        try {
          await navigator.clipboard.writeText(text);
          copy.textContent = "Copied";
        } catch (e) {
          box.select();
          copy.textContent = "Select and copy the text above";
        }
      };
    }
  }

  // The join page: draw, seal, keep; the form sends the seal only.
  function sealPage(root) {
    const table = root.dataset.table;
    const player = root.dataset.player;
    const houses = root.dataset.houses.split(",");
    const button = root.querySelector("[data-draw]");
    const submits = root.querySelectorAll("[data-join]"); // the join and its preview
    const sealInput = root.querySelector("input[name=seal]");
    if (!canSeal()) {
      show(root.querySelector("[data-insecure]"), true);
      button.style.display = "none";
      submits[0].form.hidden = true;
      return;
    }
    async function done(record) {
      listCard(root.querySelector("[data-card]"), record.loyalty);
      sealInput.value = record.seal;
      root.querySelector("[data-seal-text]").textContent = record.seal;
      offerKeeping(root, record);
      show(root.querySelector("[data-sealed]"), true);
      button.style.display = "none"; // a styled button ignores `hidden`
      submits.forEach((b) => (b.disabled = false));
    }
    let drawn = null;
    try {
      drawn = JSON.parse(window.localStorage.getItem(drawKey(table, player)) || "null");
    } catch (e) {
      drawn = null;
    }
    const before = drawn && typeof drawn.seal === "string" ? kept(drawn.seal, player, "") : null;
    if (before) {
      done(before);
    }
    button.onclick = async () => {
      const loyalty = drawCard(houses);
      const secret = newSecret();
      const record = { player: player, loyalty: loyalty, secret: secret, seal: await sealOf(player, loyalty, secret) };
      keep(record);
      window.localStorage.setItem(drawKey(table, player), JSON.stringify({ seal: record.seal }));
      await done(record);
    };
  }

  // The unseal page: the kept card and secret (this browser's, or pasted), checked against
  // the recorded seal before they are sent.
  function unsealPage(root) {
    const campaign = root.dataset.campaign;
    const player = root.dataset.player;
    const seal = root.dataset.seal;
    const form = root.querySelector("form");
    const said = root.querySelector("[data-said]");
    if (!canSeal()) {
      show(root.querySelector("[data-insecure]"), true);
      form.querySelectorAll("button").forEach((b) => (b.disabled = true));
      return;
    }
    async function use(record, from) {
      if (!record || record.player !== player || (await sealOf(player, record.loyalty, record.secret)) !== seal) {
        said.textContent = "This is not the card and secret of " + player + "'s seal.";
        return false;
      }
      form.querySelectorAll("input[data-loyalty]").forEach((input, i) => (input.value = record.loyalty[i]));
      form.querySelector("input[name=secret]").value = record.secret;
      listCard(root.querySelector("[data-card]"), record.loyalty);
      said.textContent = "Your card and secret " + from + " match your seal.";
      form.querySelectorAll("button").forEach((b) => (b.disabled = false)); // unseal, or its preview
      return true;
    }
    use(kept(seal, player, campaign), "kept in this browser").then((ok) => {
      if (!ok) said.textContent = "This browser keeps no card for your seal: paste the copy you kept.";
    });
    const paste = root.querySelector("[data-paste]");
    paste.oninput = () => {
      let record = null;
      try {
        record = JSON.parse(paste.value);
      } catch (e) {
        said.textContent = "Paste the whole text you kept, from { to }.";
        return;
      }
      use(record, "pasted").then((ok) => {
        if (ok) keep(Object.assign({}, record, { seal: seal }));
      });
    };
  }

  // The exchange page: the house a revealed token shows, read from the kept card with the
  // swaps recorded since (the card itself is never sent).
  function exchangePage(root) {
    const campaign = root.dataset.campaign;
    const player = root.dataset.player;
    const swaps = JSON.parse(root.dataset.swaps || "[]");
    const record = kept(root.dataset.seal, player, campaign);
    const form = root.querySelector("form");
    const house = form.querySelector("select[name=house]");
    const note = root.querySelector("[data-said]");
    function update() {
      if (!record) {
        note.textContent = "This browser keeps no card: choose the house your token shows.";
        return;
      }
      const card = record.loyalty.slice();
      for (const [a, b] of swaps) [card[a], card[b]] = [card[b], card[a]];
      const a = POSITIONS.indexOf(form.elements.a.value);
      const b = POSITIONS.indexOf(form.elements.b.value);
      if (a >= 0 && b >= 0) [card[a], card[b]] = [card[b], card[a]];
      const at = POSITIONS.indexOf(form.elements.reveal.value);
      if (at >= 0) {
        house.value = card[at];
        note.textContent = "Your card shows " + card[at] + " at position " + form.elements.reveal.value + ".";
      }
    }
    form.addEventListener("change", update);
    update();
  }

  // The conspiracy page: the card as it stands now (the drawn card with every swap recorded
  // since, worked out here: the server never knows it), shown to its player only; once
  // unsealed, the card leaves this browser; and it may be forgotten here once a copy is kept.
  function cardPage(root) {
    const seal = root.dataset.seal;
    const player = root.dataset.player;
    const campaign = root.dataset.campaign;
    const said = root.querySelector("[data-said]");
    if (root.dataset.unsealed === "yes") {
      forget(seal, player, campaign);
      said.textContent = "Your card is unsealed: this browser no longer keeps it.";
      return;
    }
    const record = kept(seal, player, campaign);
    if (!record) {
      said.textContent =
        "This browser keeps no card for your seal (another phone, or forgotten here): your copy has it.";
      return;
    }
    const card = record.loyalty.slice();
    for (const [a, b] of JSON.parse(root.dataset.swaps || "[]")) [card[a], card[b]] = [card[b], card[a]];
    listCard(root.querySelector("[data-card]"), card);
    said.textContent = "Your card now, after the exchanges recorded (kept in this browser only):";
    const button = root.querySelector("[data-forget]");
    button.style.display = "";
    button.onclick = () => {
      if (!window.confirm("Forget your card on this phone? You need the copy you kept to unseal.")) return;
      forget(seal, player, campaign);
      root.querySelector("[data-card]").replaceChildren();
      button.style.display = "none";
      said.textContent = "Forgotten on this phone: unseal with the copy you kept.";
    };
  }

  window.cokSeal = { sealOf: sealOf, newSecret: newSecret, drawCard: drawCard, canSeal: canSeal };
  document.addEventListener("DOMContentLoaded", () => {
    document.querySelectorAll("[data-ntk-seal]").forEach(sealPage);
    document.querySelectorAll("[data-ntk-unseal]").forEach(unsealPage);
    document.querySelectorAll("[data-ntk-exchange]").forEach(exchangePage);
    document.querySelectorAll("[data-ntk-card]").forEach(cardPage);
  });
})();
