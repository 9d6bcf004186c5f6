import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, NotFoundException, Param, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import express from 'express';
import { ExpressClassesAdapter } from '../src/common/http/express-classes';
import { readFileSync } from 'node:fs';

/**
 * The answers the baseline gives at GET /fixture/{name}: the very JSON the API answered for each bench
 * scenario (BASELINE_FIXTURES names a JSON file of {name: body}), so that a ratio compares the app's work
 * with nothing but Nest + Express serialising the same body.
 */
const fixtures: Record<string, unknown> = process.env.BASELINE_FIXTURES ? JSON.parse(readFileSync(process.env.BASELINE_FIXTURES, 'utf8')) : {};

/** The yardstick for every benchmark: a bare Nest + Express app answering one small JSON GET and POST. */
@Controller()
class PingController {
  @Get('ping')
  ping() {
    return { ok: true, data: [] };
  }

  @Get('fixture/:name')
  fixture(@Param('name') name: string) {
    if (!(name in fixtures)) throw new NotFoundException();
    return fixtures[name];
  }

  @Post('ping')
  @HttpCode(200)
  pong(@Body() body: { videoId?: number }) {
    return { views: body.videoId ?? 0 };
  }
}

@Module({ controllers: [PingController] })
class BaselineModule {}

async function main() {
  // Express on the same HTTP server as the API's (common/http/express-classes.ts), so that a ratio to this baseline
  // is still the app's own work per request, not how Express hands requests their prototypes.
  const app = await NestFactory.create(BaselineModule, new ExpressClassesAdapter(express()), { logger: false });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  console.log('ready');
}

void main();
