// Placeholder until the Studio page is bundled here: it proves that scripts load under the page's policy.
const status = document.getElementById("studio-status");
if (status) status.textContent = "Studio is served; the page itself is not bundled yet.";
