// Discord's Embedded App SDK inside Discord (the page has a frame_id), and its mock anywhere
// else, so that tests and development run the same page in a plain browser: ?user_id= picks
// the user, ?channel_id= and ?guild_id= the place, ?instance_id= the Activity's instance.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";

export interface Place {
  sdk: DiscordSDK | DiscordSDKMock;
  clientId: string;
  instanceId: string;
  channelId: string;
  mock: boolean;
  locale: string;
}

export interface SignedIn {
  accessToken: string;
}

function clientId(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="gin-client-id"]');
  return meta?.content ?? "";
}

export async function place(): Promise<Place> {
  const query = new URLSearchParams(window.location.search);
  const id = clientId();
  if (query.has("frame_id")) {
    const sdk = new DiscordSDK(id);
    await sdk.ready();
    // The Discord client's language is read once signed in (it needs the identify scope).
    return {
      sdk,
      clientId: id,
      instanceId: sdk.instanceId,
      channelId: sdk.channelId ?? "",
      mock: false,
      locale: navigator.language,
    };
  }
  const user = query.get("user_id") ?? "0";
  const channel = query.get("channel_id") ?? "0";
  const sdk = new DiscordSDKMock(id, query.get("guild_id"), channel, null);
  const instance = query.get("instance_id") ?? sdk.instanceId;
  // The mock has no Discord client to sign anyone in: it asks for the user named in the
  // page's address (the test Discord grants such codes; Discord itself never would).
  sdk._updateCommandMocks({
    authorize: async () => ({ code: `mock:${user}` }),
  });
  await sdk.ready();
  return {
    sdk,
    clientId: id,
    instanceId: instance,
    channelId: channel,
    mock: true,
    locale: query.get("locale") ?? navigator.language,
  };
}

/** authorize, the code for a token at our server, authenticate: Discord's sign-in. */
export async function signIn(where: Place): Promise<SignedIn> {
  const { code } = await where.sdk.commands.authorize({
    client_id: where.clientId,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const response = await fetch("/api/token", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ code }),
  });
  const body = (await response.json()) as { access_token?: string; error?: string };
  if (!response.ok || !body.access_token) {
    throw new Error(body.error ?? `sign-in refused (${response.status})`);
  }
  if (!where.mock) {
    await where.sdk.commands.authenticate({ access_token: body.access_token });
    try {
      where.locale = (await where.sdk.commands.userSettingsGetLocale()).locale || where.locale;
    } catch {
      // the browser's language stays
    }
  }
  return { accessToken: body.access_token };
}
