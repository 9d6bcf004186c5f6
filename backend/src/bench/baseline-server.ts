import 'reflect-metadata';
import { Body, Controller, Get, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The yardstick for every benchmark: a bare Nest + Express app answering one small JSON GET and POST. */
@Controller()
class PingController {
  @Get('ping')
  ping() {
    return { ok: true, data: [] };
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
  const app = await NestFactory.create(BaselineModule, { logger: false });
  await app.listen(Number(process.env.PORT ?? 0), '127.0.0.1');
  console.log('ready');
}

void main();
