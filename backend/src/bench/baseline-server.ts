import 'reflect-metadata';
import { Controller, Get, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';

/** The yardstick for every benchmark: a bare Nest + Express app answering one small JSON GET. */
@Controller()
class PingController {
  @Get('ping')
  ping() {
    return { ok: true, data: [] };
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
