// The table's main flow in Firefox ESR (Debian's), driven by puppeteer-core over WebDriver
// BiDi at 390x844: new game, three hands, a correction, undo, another phone's save shown
// live, dark, Spanish, a chips tap, a player's own phone (late parts, 11+ and Enter), a night
// for a crowd (joined by its QR, taken to the next table), and no error in the console. Run by
// tests/browser/test_firefox.py against a live server: node firefox_flow.mjs BASE_URL.
import puppeteer from "puppeteer-core";

const base = process.argv[2];
const firefox = process.env.FIREFOX || "/usr/bin/firefox-esr";
const errors = [];

const watch = (page, who) => {
  page.on("pageerror", (e) => errors.push(`${who}: ${e.message}`));
  page.on("console", (m) => { if (m.type() === "error") errors.push(`${who}: ${m.text()}`); });
};

// Wait until an element matching `selector` holds `text`.
const shows = (page, selector, text, timeout = 10000) => page.waitForFunction(
  (sel, want) => [...document.querySelectorAll(sel)].some((e) => e.textContent.includes(want)),
  { timeout }, selector, text);

// Tap the first element matching `selector` whose text begins with `text` (any, if none).
// A live update may replace the element between finding and tapping it ("Node is detached
// from document"): then it is found again, as a person taps what the screen shows now.
const tap = async (page, selector, text) => {
  const deadline = Date.now() + 10000;
  for (;;) {
    await page.waitForFunction((sel, want) => [...document.querySelectorAll(sel)]
      .some((e) => !want || e.textContent.trim().startsWith(want)), { timeout: 10000 }, selector, text);
    try {
      for (const handle of await page.$$(selector)) {
        const said = (await handle.evaluate((e) => e.textContent.trim()));
        if (!text || said.startsWith(text)) {
          await handle.evaluate((e) => e.scrollIntoView({ block: "center" }));
          await handle.click();
          return;
        }
      }
    } catch (error) {
      if (!/detached|not clickable|not an Element/i.test(String(error)) || Date.now() > deadline) throw error;
      continue;  // replaced while it was tapped: find it again
    }
    if (Date.now() > deadline) throw new Error(`nothing to tap: ${selector} ${text}`);
  }
};

const startGame = async (page, names, game) => {
  await page.goto(base + "/games/new");
  for (const [seat, name] of names.entries()) await page.type(`input[name=seat-${seat}]`, name);
  await tap(page, "#new-game label.tap", game);
  await Promise.all([page.waitForNavigation(), tap(page, "button[type=submit]", "Start game")]);
};

// The round form's preview has answered the last tap.
const previewed = (page) => page.waitForSelector("#hand-form:not([data-previewing])");

const hand = async (page, wentOut, cards, next) => {
  await Promise.all([page.waitForNavigation(), tap(page, "#record-hand")]);
  await tap(page, "[data-went-out] label.tap", wentOut);
  for (const [name, count] of Object.entries(cards)) {
    await tap(page, `.player[data-name='${name}'] .taps.cards label.tap`, String(count));
  }
  await previewed(page);
  await tap(page, "#save-hand");  // the scoreboard comes back in place, no page load
  await shows(page, "#record-hand", `Record hand ${next}`);
};

const totals = (page) => page.evaluate(() => Object.fromEntries([...document.querySelectorAll(
  ".standings li")].map((li) => [li.dataset.name, Number(li.querySelector(".total").textContent)])));

const same = (got, want, what) => {
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`${what}: ${JSON.stringify(got)}, not ${JSON.stringify(want)}`);
  }
};

// No service worker: a phone at the table opens the app over plain HTTP by the machine's
// address, where there is none (the Chromium tests cover the worker, over a secure origin).
const browser = await puppeteer.launch({ browser: "firefox", executablePath: firefox,
                                         headless: true,
                                         extraPrefsFirefox: { "dom.serviceWorkers.enabled": false } });
try {
  const page = await browser.newPage();
  await page.setViewport({ width: 390, height: 844 });
  watch(page, "phone");

  await startGame(page, ["Ann", "Ben", "Cy"], "Penalty points");
  const board = page.url();
  await hand(page, "Ann", { Ben: 3, Cy: 2 }, 2);
  await hand(page, "Ben", { Ann: 4, Cy: 1 }, 3);
  await hand(page, "Cy", { Ann: 2, Ben: 5 }, 4);
  same(await totals(page), { Cy: 3, Ann: 6, Ben: 8 }, "totals after three hands");

  // A correction: hand 1, Ben held 6, not 3.
  await Promise.all([page.waitForNavigation(), tap(page, "a.edit")]);
  await tap(page, ".player[data-name='Ben'] .taps.cards label.tap", "6");
  await previewed(page);
  await tap(page, "#save-hand");
  await shows(page, "#record-hand", "Record hand 4");
  same(await totals(page), { Cy: 3, Ann: 6, Ben: 11 }, "totals after the correction");

  // Undo, right after a save.
  await hand(page, "Ann", { Ben: 1, Cy: 1 }, 5);
  await tap(page, "[data-saved-toast] button", "Undo");
  await shows(page, ".flash", "Hand 4 undone");
  await shows(page, "#record-hand", "Record hand 4");

  // Another phone saves a hand: this one shows it without a tap.
  const other = await (await browser.createBrowserContext()).newPage();
  await other.setViewport({ width: 390, height: 844 });
  watch(other, "other phone");
  await other.goto(board);
  await hand(other, "Ben", { Ann: 1, Cy: 2 }, 5);
  await page.bringToFront();  // each phone shows its own page; a tab behind another is hidden
  await shows(page, "#record-hand", "Record hand 5", 5000);

  // Dark, by the theme key; then Spanish, by the switch at the foot.
  await tap(page, "[data-theme-toggle]");
  await page.waitForFunction(() => ["dark", "light"].includes(document.documentElement.dataset.theme));
  await Promise.all([page.waitForNavigation(), tap(page, "footer.language button", "Español")]);
  await shows(page, "#record-hand", "mano 5");
  if (await page.evaluate(() => document.documentElement.lang) !== "es") throw new Error("not Spanish");
  await Promise.all([page.waitForNavigation(), tap(page, "footer.language button", "English")]);

  // A chips game: a pass tapped goes into the pot, and stays there.
  await startGame(page, ["Ann", "Ben", "Cy"], "Chip pot");
  await shows(page, "#live .pot", "3");
  await tap(page, "#live .live-player[data-name='Cy'] .tapkey");
  await shows(page, "#live .pot", "4");
  await page.waitForFunction(() => !document.querySelector("#live .pending"));
  await page.reload();
  await shows(page, "#live .pot", "4");

  // Every player on their own phone: Ann's phone (this one) and Ben's. Ben's part comes
  // after the hand was recorded, with a connection and then from the queue once it is
  // back: his phone says so and shows the next hand. Then, in a stalemate, 12 typed in
  // the "11 or more" box and Enter: 12 cards, not "I went out".
  await startGame(page, ["Ann", "Ben"], "Penalty points");
  const join = await page.$eval(".join small", (e) => e.textContent);
  const joinPath = join.slice(join.indexOf("/games/")).trim();
  const game = joinPath.split("/join/")[0];
  const ben = await (await browser.createBrowserContext()).newPage();
  await ben.setViewport({ width: 390, height: 844 });
  watch(ben, "Ben's phone");
  await ben.goto(base + joinPath);
  await Promise.all([ben.waitForNavigation(), tap(ben, "button[data-seat='1']")]);
  await shows(ben, ".mine-head", "Ben");
  await page.goto(base + game + "/seat");
  await Promise.all([page.waitForNavigation(), tap(page, "button[data-seat='0']")]);
  const annOutAndBensPart = async (number, cards) => {  // ✎: Ben's part, on Ann's phone
    await tap(page, "button[name=went_out]");
    await shows(page, "[data-parts] li.done", "Ann went out");
    await page.goto(`${base}${game}/hands/${number}/part?seat=1`);
    await Promise.all([page.waitForNavigation(), tap(page, "button.key", String(cards))]);
    await shows(page, ".game-head", `${number} hand`);
  };
  await tap(ben, ".my-kings label.tap", "1");  // kings first...
  await annOutAndBensPart(1, 5);
  await tap(ben, "button.key", "3");  // ...then the cards, too late
  await shows(ben, "[data-part-said]", "Hand 1 was recorded already");
  await shows(ben, ".game-head", "1 hand played");
  // A weak signal: the part's post fails until the connection is back.
  await ben.evaluate(() => {
    const real = window.fetch;
    window.fetch = (url, options) => (window.cut && String(url).includes("/part")
      ? Promise.reject(new TypeError("cut")) : real(url, options));
    window.cut = true;
  });
  await tap(ben, "button.key", "4");
  await shows(ben, "[data-part-said]", "No connection");
  await annOutAndBensPart(2, 6);
  await ben.evaluate(() => { window.cut = false; window.dispatchEvent(new Event("online")); });
  await shows(ben, "[data-part-said]", "Hand 2 was recorded already");
  await shows(ben, ".game-head", "2 hands played");
  await tap(page, "button.key", "3");  // Ann holds 3: nobody went out
  await shows(ben, "[data-parts] li.done", "Ann 3 cards");
  await ben.type("input[name=cards_more]", "12");
  await ben.keyboard.press("Enter");
  await shows(ben, ".game-head", "3 hands played");
  same(await totals(ben), { Ann: 0, Ben: 23 }, "totals after Ben's own parts");

  // A night for a crowd: this phone is the host; Ann's phone joins by the night's QR code
  // with one tap on her name, is taken to her table and seat, sends her own part, is
  // offered her next table once round 2 is seated, and sees the night's winner.
  const endRound = async () => {  // End game now at every table of the round
    await page.bringToFront();
    await page.goto(base + "/crowds/1");
    const boards = await page.evaluate(() => [...document.querySelector(".crowd-round")
      .querySelectorAll(".crowd-table a.button")].map((a) => a.getAttribute("href")));
    for (const board of boards) {
      await page.goto(base + board);
      await tap(page, "button", "End game now");
      await Promise.all([page.waitForNavigation(), tap(page, "dialog.ask button[value=yes]")]);
      await shows(page, ".banner .winner", "win");
    }
  };
  await page.goto(base + "/crowds/new");
  await page.type("#new_names", "Ann\nBen\nCy\nDee\nEve");
  await page.$eval("#table_size", (e) => { e.value = "3"; });
  await page.$eval("#rounds", (e) => { e.value = "2"; });
  await Promise.all([page.waitForNavigation(), tap(page, "button[type=submit]", "Seat everyone")]);
  await shows(page, "h1", "Round 1 of 2");
  const qr = await page.$eval("#crowd-qr", (a) => a.getAttribute("href"));
  const crowdJoin = new URL(qr, base).searchParams.get("to");
  const ann = await (await browser.createBrowserContext()).newPage();
  await ann.setViewport({ width: 390, height: 844 });
  watch(ann, "Ann's phone at the night");
  await ann.goto(base + crowdJoin);
  await shows(ann, "h1", "Which one are you?");
  await Promise.all([ann.waitForNavigation(), tap(ann, "button.big", "Ann")]);
  await shows(ann, "main", "Round 1: table");
  await shows(ann, ".mine-head", "Ann");
  await tap(ann, "button[name=went_out]");
  await shows(ann, "[data-parts] li.done", "Ann went out");
  await endRound();
  await page.goto(base + "/crowds/1");
  await Promise.all([page.waitForNavigation(), tap(page, "#next-round")]);
  await shows(page, "main", "Round 2 is seated");
  await ann.bringToFront();  // a phone in view asks for news; a tab behind does not
  await Promise.all([ann.waitForNavigation(), tap(ann, "[data-next-game] a")]);
  await shows(ann, "main", "Round 2: table");
  await shows(ann, ".mine-head", "Ann");
  await endRound();
  await ann.bringToFront();
  await ann.goto(base + "/crowds/1");
  await shows(ann, "h1", "The night is over");
  await shows(ann, ".crowd-winner", "the night");
} finally {
  await browser.close();
}
if (errors.length) {
  console.error("Firefox reported errors:\n" + errors.join("\n"));
  process.exit(1);
}
console.log("the main flow passed in Firefox");
