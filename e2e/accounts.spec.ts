import { type Browser, type Page, expect, test } from "@playwright/test";
import { FRESH_ACCOUNTS } from "../scripts/fresh-server";
import { consoleErrors, signIn, unique, openFromMenu } from "./support";

/** Accounts as an admin manages them, and where each role lands. */

/** Signs in with an email and password in a browser of its own; the page after sign-in. */
async function signInFresh(browser: Browser, email: string, password: string): Promise<Page> {
  const page = await (await browser.newContext()).newPage();
  await page.goto("/login");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  return page;
}

test("an admin changes a role, disables an account after confirming, and enables it again", async ({
  page,
  browser,
}, info) => {
  const errors = consoleErrors(page);
  await signIn(page, "admin");
  await openFromMenu(page, "Keys & accounts");
  const email = `${unique("staff")}@example.test`;
  await page.getByLabel("Email").fill(email);
  await page
    .locator("form")
    .filter({ hasText: "Create account" })
    .getByRole("combobox")
    .selectOption("reviewer");
  await page.getByRole("button", { name: "Create account" }).click();
  const created = page.getByRole("status").filter({ hasText: "can sign in with the password" });
  const password = (await created.locator("code").textContent())!;

  // A reviewer lands on the review queue; the admins' pages tell it who can change its role.
  const reviewer = await signInFresh(browser, email, password);
  await expect(reviewer).toHaveURL(/\/events$/);
  await reviewer.goto("/keys");
  await expect(reviewer.getByRole("heading", { name: "Not for your role" })).toBeVisible();
  await expect(reviewer.getByText(`Your account (${email}) is a reviewer`)).toBeVisible();
  await expect(reviewer.getByRole("link", { name: FRESH_ACCOUNTS.admin })).toBeVisible();
  await reviewer.screenshot({ path: info.outputPath("not-for-your-role.png") });

  const row = page.getByRole("row", { name: new RegExp(email) });
  await row.getByLabel(`Role of ${email}`).selectOption("analyst");
  await expect(page.getByRole("status").filter({ hasText: `${email} is now Analyst.` })).toBeVisible();

  await row.getByRole("button", { name: `Disable ${email}` }).click();
  const confirm = row.getByRole("group", { name: `Confirm disabling ${email}` });
  await expect(confirm).toContainText("Signs");
  await page.screenshot({ path: info.outputPath("confirm-disable.png") });
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toContainText("Active");
  await row.getByRole("button", { name: `Disable ${email}` }).click();
  await confirm.getByRole("button", { name: "Disable" }).click();
  await expect(row).toContainText("Disabled");
  // Signed out everywhere: the reviewer's open page now sends it to sign in.
  await reviewer.goto("/events");
  await expect(reviewer).toHaveURL(/\/login/);

  await row.getByRole("button", { name: `Enable ${email}` }).click();
  await expect(row).toContainText("Active");
  const analyst = await signInFresh(browser, email, password);
  await expect(analyst).toHaveURL(/\/overview$/);
  // The admin's own row has no controls to lock itself out.
  const own = page.getByRole("row", { name: new RegExp(FRESH_ACCOUNTS.admin) });
  await expect(own).toContainText("(you)");
  await expect(own.getByRole("button")).toHaveCount(0);
  expect(errors).toEqual([]);
});
