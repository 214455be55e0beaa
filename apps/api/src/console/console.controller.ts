import { Body, Controller, Get, Param, Post, Query, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ConsoleAssets } from './console-assets.service';
import { ConsolePagesService } from './console-pages.service';
import { ConsoleSessionService } from './console-session.service';
import * as pages from './console.pages';

type Form = Record<string, unknown>;
/** A v1 (`api_…`) or v2 (`v2_…`) job id, the only ids the job page can show. */
const JOB_ID = /^(?:api|v2)_[a-z2-7]{1,60}$/;
const str = (v: unknown) => (typeof v === 'string' ? v : '');

const INVITE_FAILURES = {
  unknown: 'This invite link is not valid. Ask the operator for a new one.',
  expired: 'This invite link has expired (invites last 7 days). Ask the operator for a new one.',
  used: 'This invite link has already been used. Sign in with your password, or ask the operator for a new invite.',
} as const;

/**
 * The console (/console): server-rendered pages, sign-in forms and the static client files. Thin: sign-in
 * logic lives in ConsoleSessionService, page data checks in ConsolePagesService.
 */
@ApiExcludeController()
@Controller('console')
export class ConsoleController {
  constructor(
    private readonly sessions: ConsoleSessionService,
    private readonly pages: ConsolePagesService,
    private readonly assets: ConsoleAssets,
  ) {}

  @Get('assets/:file')
  asset(@Param('file') file: string, @Res() reply: FastifyReply): void {
    this.assets.send(file, reply);
  }

  @Get('login')
  async loginForm(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    if (await this.sessions.current(req)) return this.redirect(reply, '/console');
    this.html(
      reply,
      200,
      pages.loginPage(this.sessions.preSessionCsrf(req, reply), {
        notice: 'signed_out' in (req.query as object) ? 'You are signed out.' : undefined,
      }),
    );
  }

  @Post('login')
  async login(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: Form): Promise<void> {
    const csrf = this.sessions.preSessionCsrf(req, reply);
    const email = str(body?.email).trim();
    if (!this.sessions.preSessionCsrfValid(req, body?._csrf)) {
      return this.html(
        reply,
        403,
        pages.loginPage(csrf, { email, errors: { form: 'This form expired or was sent from elsewhere. Please try again.' } }),
      );
    }
    const errors: Record<string, string> = {};
    if (!email) errors.email = 'Enter your email.';
    if (!str(body?.password)) errors.password = 'Enter your password.';
    if (Object.keys(errors).length) return this.html(reply, 400, pages.loginPage(csrf, { email, errors }));
    const res = await this.sessions.signIn(email, str(body.password), req.ip);
    if ('error' in res) {
      if (res.error === 'limited') {
        void reply.header('retry-after', String(res.retryS));
        return this.html(
          reply,
          429,
          pages.loginPage(csrf, {
            email,
            errors: { form: `Too many sign-in attempts. Try again in ${Math.ceil(res.retryS / 60)} minutes.` },
          }),
        );
      }
      return this.html(reply, 401, pages.loginPage(csrf, { email, errors: { password: 'Wrong email or password.' } }));
    }
    this.sessions.setSessionCookie(reply, res.sessionId);
    this.redirect(reply, '/console');
  }

  @Get('invite')
  async inviteForm(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Query('token') token: string | undefined): Promise<void> {
    const inv = await this.sessions.findInvite(str(token));
    if ('failure' in inv)
      return this.html(reply, inv.failure === 'unknown' ? 404 : 410, pages.messagePage('Invite not valid', INVITE_FAILURES[inv.failure]));
    this.html(reply, 200, pages.invitePage(this.sessions.preSessionCsrf(req, reply), str(token), inv.email));
  }

  @Post('invite')
  async acceptInvite(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: Form): Promise<void> {
    const token = str(body?.token);
    const inv = await this.sessions.findInvite(token);
    if ('failure' in inv)
      return this.html(reply, inv.failure === 'unknown' ? 404 : 410, pages.messagePage('Invite not valid', INVITE_FAILURES[inv.failure]));
    const csrf = this.sessions.preSessionCsrf(req, reply);
    if (!this.sessions.preSessionCsrfValid(req, body?._csrf)) {
      return this.html(
        reply,
        403,
        pages.invitePage(csrf, token, inv.email, { form: 'This form expired or was sent from elsewhere. Please try again.' }),
      );
    }
    const problems = ConsoleSessionService.passwordProblems(str(body.password), str(body.confirm));
    if (problems.length)
      return this.html(reply, 400, pages.invitePage(csrf, token, inv.email, Object.fromEntries(problems.map((p) => [p.field, p.message]))));
    const res = await this.sessions.acceptInvite(token, str(body.password));
    if ('failure' in res) return this.html(reply, 410, pages.messagePage('Invite not valid', INVITE_FAILURES[res.failure]));
    this.sessions.setSessionCookie(reply, res.sessionId);
    this.redirect(reply, '/console');
  }

  @Post('logout')
  async logout(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Body() body: Form): Promise<void> {
    const s = await this.sessions.current(req);
    if (s && !this.sessions.csrfValid(s, body?._csrf))
      return this.html(
        reply,
        403,
        pages.messagePage('Not signed out', 'The form was missing its security token. Go back and try again.', {
          href: '/console',
          label: 'Back to the console',
        }),
      );
    if (s) await this.sessions.signOut(s);
    this.sessions.clearSessionCookie(reply);
    this.redirect(reply, '/console/login?signed_out');
  }

  @Get()
  overview(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.overviewPage);
  }

  @Get('keys')
  keys(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.keysPage);
  }

  @Get('showcases')
  showcases(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.showcasesPage);
  }

  @Get('showcases/:id')
  async showcase(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    const v = await this.viewer(req, reply);
    if (!v) return;
    const sc = await this.pages.showcase(v, id);
    if (!sc)
      return this.html(
        reply,
        404,
        pages.layout(
          v,
          'not-found',
          'Not found',
          '<p>There is no such showcase in your account.</p><p><a href="/console/showcases">All showcases</a></p>',
        ),
      );
    this.html(reply, 200, pages.showcasePage(v, id, sc.qrSvg, sc.url));
  }

  @Get('connections')
  connections(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.connectionsPage);
  }

  @Get('analytics')
  analytics(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    const q = (req.query ?? {}) as Record<string, unknown>;
    return this.page(req, reply, (v) => pages.analyticsPage(v, pages.analyticsFilters(q, v.role)));
  }

  @Get('convert')
  convert(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.convertPage);
  }

  @Get('jobs')
  jobs(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.jobsPage);
  }

  @Get('jobs/:id')
  async job(@Req() req: FastifyRequest, @Res() reply: FastifyReply, @Param('id') id: string) {
    // Only a job id reaches the page (its script puts it into API paths): `..%2F..%2Fkeys` is no job.
    if (!JOB_ID.test(id)) {
      const v = await this.viewer(req, reply);
      if (v)
        this.html(
          reply,
          404,
          pages.layout(v, 'not-found', 'Not found', '<p>There is no such job.</p><p><a href="/console/jobs">All jobs</a></p>'),
        );
      return;
    }
    return this.page(req, reply, (v) => pages.jobPage(v, id));
  }

  @Get('usage')
  usage(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.usagePage);
  }

  @Get('webhooks')
  webhooks(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.webhooksPage);
  }

  @Get('admin/users')
  adminUsers(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.adminUsersPage, true);
  }

  @Get('admin/jobs')
  adminJobs(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.adminJobsPage, true);
  }

  @Get('admin/queue')
  adminQueue(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.page(req, reply, pages.adminQueuePage, true);
  }

  private async page(req: FastifyRequest, reply: FastifyReply, render: (v: pages.Viewer) => string, ownerOnly = false): Promise<void> {
    const v = await this.viewer(req, reply);
    if (!v) return;
    if (ownerOnly && v.role !== 'owner')
      return this.html(reply, 403, pages.layout(v, 'forbidden', 'Owners only', '<p>This page is for the operator of the service.</p>'));
    this.html(reply, 200, render(v));
  }

  /** The signed-in viewer; otherwise answers with a redirect to the sign-in page and returns null. */
  private async viewer(req: FastifyRequest, reply: FastifyReply): Promise<(pages.Viewer & { userId: string }) | null> {
    const s = await this.sessions.current(req);
    if (!s) {
      this.redirect(reply, '/console/login');
      return null;
    }
    return { userId: s.userId, email: s.email, name: s.name, role: s.consoleRole, csrf: s.csrfToken };
  }

  private redirect(reply: FastifyReply, to: string): void {
    void reply.code(303).header('location', to).header('cache-control', 'no-store').send();
  }

  private html(reply: FastifyReply, status: number, body: string): void {
    // Sent uncompressed, unlike the public pages: a console page holds the CSRF token next to text the
    // visitor typed, which compression would let an attacker guess by size (BREACH).
    void reply
      .code(status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      // Same origin only, no inline code; pictures may come from the storage's public URL (S3/CDN) too.
      .header(
        'content-security-policy',
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob: https:; connect-src 'self'; frame-src 'self'; frame-ancestors 'none'; form-action 'self'; base-uri 'none'; object-src 'none'",
      )
      .header('x-frame-options', 'DENY')
      .header('x-content-type-options', 'nosniff')
      // The invite URL carries its token: never sent on as a Referer.
      .header('referrer-policy', 'no-referrer')
      .send(body);
  }
}
